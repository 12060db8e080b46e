"""Rule validation, path and tool matching, expiry and staleness."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from jarvis.core.policy.rules import (
    Rule,
    RuleSet,
    is_expired,
    is_stale,
    match_any_rules,
    match_path_rules,
    match_shell_rules,
    normalise_path,
)
from jarvis.core.policy.shell import analyze_shell

WORKSPACE = Path("/ws")
ALLOW, DENY, NONE = "allow", "deny", "none"


@pytest.fixture(autouse=True)
def _home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/u")


def path_outcome(path: str, *specs: str, tool: str = "write_file") -> str:
    rules = RuleSet(
        Rule(tool="write_file", action=action, pattern=pattern)
        for action, pattern in (spec.split(" ", 1) for spec in specs)
    )
    match = match_path_rules(tool, path, rules, workspace=WORKSPACE, now_ms=0, fingerprint=None)
    return match.outcome


@pytest.mark.parametrize(
    ("path", "specs", "expected"),
    [
        ("src/app/main.py", ("allow src/app/*",), ALLOW),
        ("./src/app/main.py", ("allow src/app/*",), ALLOW),
        ("/ws/src/app/main.py", ("allow src/app/*",), ALLOW),
        ("src/app/main.py", ("allow ./src/app/*",), ALLOW),
        ("src/app/sub/main.py", ("allow src/app/*",), NONE),
        ("src/app/sub/main.py", ("allow src/app/**",), ALLOW),
        ("src/app/main.py", ("allow src/**/main.py",), ALLOW),
        ("src/main.py", ("allow src/**/main.py",), ALLOW),
        ("src/app/../../etc/passwd", ("allow src/app/*",), NONE),
        ("src/app/../../etc/passwd", ("allow etc/*",), ALLOW),  # lexically still inside
        ("src/app/../../../etc/passwd", ("allow **",), NONE),
        ("src/app/../../../etc/passwd", ("allow /etc/*",), ALLOW),
        ("../outside.txt", ("allow **",), NONE),
        ("/etc/passwd", ("allow *",), NONE),
        ("/etc/passwd", ("allow **",), NONE),
        ("/etc/passwd", ("allow /etc/*",), ALLOW),
        ("//etc/passwd", ("allow **", "deny /etc/*"), DENY),
        ("README.md", ("allow *",), ALLOW),
        ("docs/a.md", ("allow *",), NONE),
        ("docs/a.md", ("allow docs/?.md",), ALLOW),
        ("docs/ab.md", ("allow docs/?.md",), NONE),
        ("src/app/x.py", ("allow src/**", "deny src/app/*"), DENY),
        ("src/app/x.py", ("deny src/app/*", "allow src/app/x.py"), DENY),
        ("~/.ssh/authorized_keys", ("allow **",), NONE),
        ("~/.ssh/authorized_keys", ("allow *", "deny ~/.ssh/*"), DENY),
        ("/home/u/.ssh/authorized_keys", ("deny ~/.ssh/*",), DENY),
        ("src/[a].py", ("allow src/[a].py",), ALLOW),  # only * ? ** are special
        ("src/a.py", ("allow src/[a].py",), NONE),
    ],
)
def test_path_table(path: str, specs: tuple[str, ...], expected: str) -> None:
    assert path_outcome(path, *specs) == expected


def test_path_rules_are_per_tool() -> None:
    assert path_outcome("src/x.py", "allow src/*", tool="edit_file") == NONE


def test_path_allow_names_the_longest_pattern() -> None:
    rules = RuleSet([Rule(tool="edit_file", pattern="**"), Rule(tool="edit_file", pattern="a/*")])
    match = match_path_rules(
        "edit_file", "a/b", rules, workspace=WORKSPACE, now_ms=0, fingerprint=None
    )
    assert match.rule is not None and match.rule.pattern == "a/*"


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        ("src/app/main.py", "src/app/main.py"),
        ("./src//app/./main.py", "src/app/main.py"),
        ("src/app/../../etc/passwd", "etc/passwd"),
        ("src/../../etc/passwd", "/etc/passwd"),
        ("/ws/a", "a"),
        ("/ws", "."),
        ("/wsx/a", "/wsx/a"),
        ("//etc/x", "/etc/x"),
        ("~/notes.txt", "/home/u/notes.txt"),
    ],
)
def test_normalise_path(raw: str, normalised: str) -> None:
    assert normalise_path(raw, WORKSPACE) == normalised


@pytest.mark.parametrize(
    ("specs", "expected"),
    [
        ((("allow", "*"),), ALLOW),
        ((("deny", "*"),), DENY),
        ((("allow", "*"), ("deny", "*")), DENY),
        ((), NONE),
    ],
)
def test_other_tools(specs: tuple[tuple[str, str], ...], expected: str) -> None:
    rules = RuleSet(Rule(tool="web_fetch", action=a, pattern=p) for a, p in specs)
    assert match_any_rules("web_fetch", rules, now_ms=0, fingerprint=None).outcome == expected
    assert match_any_rules("web_search", rules, now_ms=0, fingerprint=None).outcome == NONE


@pytest.mark.parametrize(
    "fields",
    [
        {"tool": "bash", "pattern": "git status", "patern": "rm"},  # a typo must not widen
        {"tool": "bash", "pattern": ""},
        {"tool": "bash", "pattern": "  "},
        {"tool": "bash", "pattern": "git 'status"},
        {"tool": "bash", "pattern": "git", "action": "maybe"},
        {"tool": "", "pattern": "*"},
        {"tool": "write_file", "pattern": "../elsewhere/*"},
        {"tool": "write_file", "pattern": ""},
        {"tool": "web_fetch", "pattern": "example.com"},
        {"tool": "bash", "pattern": "ls", "expires_at": "tomorrow"},
        {"tool": "bash", "pattern": "ls", "granted_at": "2026-13-01"},
    ],
)
def test_invalid_rules_are_rejected(fields: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        Rule.model_validate(fields)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (("bash", "git  status"), ("bash", "git status"), True),
        (("bash", "git 'status'"), ("bash", "git status"), True),
        (("bash", "uv run *"), ("bash", "uv run"), True),
        (("bash", "ls '*'"), ("bash", "ls"), False),
        (("bash", " * "), ("bash", "*"), True),
        (("write_file", "./src/*"), ("write_file", "src/*"), True),
        (("write_file", "src/*"), ("edit_file", "src/*"), False),
    ],
)
def test_rule_keys(a: tuple[str, str], b: tuple[str, str], same: bool) -> None:
    first, second = Rule(tool=a[0], pattern=a[1]), Rule(tool=b[0], pattern=b[1])
    assert (first.key == second.key) is same


def test_origin_is_not_serialised_and_labels_read_well() -> None:
    rule = Rule(tool="bash", pattern="git status", origin="approvals/main.yaml")
    assert "origin" not in rule.model_dump()
    assert rule.label() == "approvals/main.yaml: allow bash git status"
    assert Rule(tool="bash", pattern="ls").label() == "allow bash ls"


EXPIRES = "2026-01-01T00:00:00Z"
EXPIRES_MS = 1_767_225_600_000


@pytest.mark.parametrize(
    ("expires_at", "now", "expired"),
    [
        (None, EXPIRES_MS, False),
        (EXPIRES, EXPIRES_MS - 1, False),
        (EXPIRES, EXPIRES_MS, True),
        (EXPIRES, "2025-12-31T23:59:59Z", False),
        (EXPIRES, "2026-01-01T09:00:00+09:00", True),
        ("2026-01-01T00:00:00", EXPIRES_MS, True),  # naive means UTC
    ],
)
def test_is_expired(expires_at: str | None, now: int | str, expired: bool) -> None:
    assert is_expired(Rule(tool="bash", pattern="ls", expires_at=expires_at), now) is expired


def test_expired_rules_do_not_apply() -> None:
    rules = RuleSet(
        [
            Rule(tool="bash", pattern="ls", expires_at=EXPIRES),
            Rule(tool="bash", pattern="rm", action="deny", expires_at=EXPIRES),
        ]
    )
    for command in ("ls", "rm x"):
        analysis = analyze_shell(command)
        before = match_shell_rules(analysis, rules, now_ms=EXPIRES_MS - 1, fingerprint=None)
        after = match_shell_rules(analysis, rules, now_ms=EXPIRES_MS, fingerprint=None)
        assert before.outcome != NONE and after.outcome == NONE


@pytest.mark.parametrize(
    ("action", "granted_under", "current", "applies"),
    [
        ("allow", None, "p2", True),  # hand-written: never stale
        ("allow", "p1", "p1", True),
        ("allow", "p1", "p2", False),
        ("allow", "p1", None, False),
        ("deny", "p1", "p2", True),  # deny rules keep applying
    ],
)
def test_stale_allow_rules_do_not_apply(
    action: str, granted_under: str | None, current: str | None, applies: bool
) -> None:
    rule = Rule(tool="bash", pattern="ls", action=action, fingerprint=granted_under)
    match = match_shell_rules(analyze_shell("ls"), RuleSet([rule]), now_ms=0, fingerprint=current)
    assert (match.outcome != NONE) is applies
    assert is_stale(rule, current) is (not applies)


def test_a_stale_rule_does_not_hide_a_fresh_one() -> None:
    rules = RuleSet(
        [
            Rule(tool="bash", pattern="git status", fingerprint="old"),
            Rule(tool="bash", pattern="git"),
        ]
    )
    match = match_shell_rules(analyze_shell("git status"), rules, now_ms=0, fingerprint="new")
    assert match.rule is not None and match.rule.pattern == "git"


def test_rule_set_is_a_sized_iterable() -> None:
    rules = [Rule(tool="bash", pattern="ls"), Rule(tool="web_fetch")]
    assert list(RuleSet(rules)) == rules and len(RuleSet(rules)) == 2


def test_matching_a_compound_command_against_200_rules() -> None:
    """The SPEC hot path's input; its speed (>= 50,000 decisions/s) is measured by
    benchmarks/decide.py, not asserted here: a busy machine must not fail the suite."""
    rules = RuleSet(
        [Rule(tool="bash", pattern=f"tool{i} sub{i}") for i in range(150)]
        + [Rule(tool="bash", pattern=f"deny{i}", action="deny") for i in range(20)]
        + [Rule(tool="write_file", pattern=f"dir{i}/*") for i in range(30)]
        + [Rule(tool="bash", pattern="git status")]
    )
    analysis = analyze_shell("git status --short && tool7 sub7 x | tool9 sub9")
    match = match_shell_rules(analysis, rules, now_ms=0, fingerprint="fp")
    assert match.outcome == ALLOW
