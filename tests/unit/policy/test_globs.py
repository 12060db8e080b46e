"""Path globs, and `GlobUnion` (all of a tool's globs in one regex call) against trying each
glob in turn."""

from __future__ import annotations

import itertools

import pytest

from jarvis.core.policy.globs import GlobUnion, compile_glob, compile_read_glob
from jarvis.core.policy.rules import Rule, RuleSet, match_path_rules

from .test_rules import EXPIRES, EXPIRES_MS, WORKSPACE

GLOBS = ["*", "**", "src/*", "src/**", "src/*.py", "**/*.py", "docs/**/x?.md", "/etc/*", "/**",
         "a/b/c", "src/pkg1/*", "src/pkg1*", "[x].txt", "**/test_*"]  # fmt: skip
PATHS = ["src/a.py", "src/pkg1/m.py", "src/pkg10", "docs/x1.md", "docs/a/b/x2.md", "a/b/c",
         "[x].txt", "x.txt", "tests/test_a.py", "README", "src", "src/a/b/c.py"]  # fmt: skip


@pytest.mark.parametrize("read", [False, True])
def test_the_union_names_the_first_glob_that_covers_like_a_scan(read: bool) -> None:
    compile_ = compile_read_glob if read else compile_glob
    for globs in itertools.permutations(GLOBS, 3):
        compiled = [(compile_(glob), glob.startswith("/")) for glob in globs]
        union = GlobUnion(compiled)
        for path in PATHS:
            absolute = f"/ws/{path}"
            scan = next(
                (
                    index
                    for index, (glob, is_absolute) in enumerate(compiled)
                    if glob.fullmatch(absolute if is_absolute else path)
                ),
                None,
            )
            assert union.first(absolute, path) == scan, (globs, path)


def test_outside_the_workspace_only_absolute_globs_cover() -> None:
    union = GlobUnion([(compile_glob("**"), False), (compile_glob("/etc/*"), True)])
    assert union.first("/etc/hosts", None) == 1
    assert union.first("/srv/x", None) is None
    assert GlobUnion([]).first("/x", "x") is None
    assert GlobUnion([(None, False)]).first("/x", "x") is None


def test_an_expired_rule_gives_way_to_the_next_that_covers() -> None:
    rules = RuleSet(
        [
            Rule(tool="write_file", pattern="src/**"),
            Rule(tool="write_file", pattern="src/pkg/*", expires_at=EXPIRES),
            Rule(tool="write_file", action="deny", pattern="src/pkg/*.lock", expires_at=EXPIRES),
        ]
    )

    def named(now: int) -> tuple[str, str]:
        match = match_path_rules(
            "write_file", "src/pkg/a.lock", rules, workspace=WORKSPACE, now_ms=now, fingerprint=None
        )
        return match.outcome, match.rule.pattern if match.rule else ""

    assert named(EXPIRES_MS - 1) == ("deny", "src/pkg/*.lock")
    assert named(EXPIRES_MS) == ("allow", "src/**")  # the longer allow rule has expired too
