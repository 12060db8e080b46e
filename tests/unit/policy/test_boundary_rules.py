"""Rules for the boundary's tool kinds: read-tool path globs, web_fetch hosts, real paths."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from jarvis.core.policy.boundary_rules import match_host_rules, match_target_rules
from jarvis.core.policy.patterns import suggest_pattern
from jarvis.core.policy.rules import Rule, RuleSet

WORKSPACE = Path("/ws")


@pytest.fixture(autouse=True)
def _home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/u")


def target_outcome(tool: str, lexical: str, real: str, *specs: str) -> str:
    rules = RuleSet(
        Rule(tool=tool, action=action, pattern=pattern)
        for action, pattern in (spec.split(" ", 1) for spec in specs)
    )
    return match_target_rules(
        tool, lexical, real, rules, workspace=WORKSPACE, now_ms=0, fingerprint=None
    ).outcome


@pytest.mark.parametrize(
    ("tool", "lexical", "real", "specs", "expected"),
    [
        ("write_file", "/ws/src/app/x.py", "/ws/src/app/x.py", ("allow src/app/*",), "allow"),
        # `src/app/link/../x`: the text folds to src/app/x, the kernel lands outside
        ("write_file", "/ws/src/app/x", "/srv/x", ("allow src/app/*",), "none"),
        # a symlink inside src/app pointing elsewhere in the workspace
        ("write_file", "/ws/src/app/l", "/ws/build/l", ("allow src/app/*",), "none"),
        ("write_file", "/ws/src/app/l", "/ws/build/l", ("allow src/app/*", "allow build/*"),
         "allow"),
        # a deny rule on either path denies
        ("write_file", "/ws/src/app/l", "/ws/build/l", ("allow src/app/*", "deny build/*"), "deny"),
        ("write_file", "/ws/build/l", "/ws/src/l", ("allow src/*", "deny build/*"), "deny"),
        ("read_file", "/etc/hosts", "/etc/hosts", ("allow /etc/*",), "allow"),
        ("read_file", "/etc/link", "/home/u/notes.txt", ("allow /etc/*",), "none"),
        ("read_file", "/etc/ssl/certs/a.pem", "/etc/ssl/certs/a.pem", ("allow /etc/*",), "none"),
        ("list_dir", "/home/u/notes", "/home/u/notes", ("allow /home/u/notes/**",), "allow"),
        ("grep", "/home/u/notes/a/b", "/home/u/notes/a/b", ("allow ~/notes/**",), "allow"),
        ("grep", "/home/u/notes2", "/home/u/notes2", ("allow /home/u/notes/**",), "none"),
        ("glob", "/home/u", "/home/u", ("allow /home/u/notes/**",), "none"),
    ],
)  # fmt: skip
def test_target_rules_judge_both_paths(
    tool: str, lexical: str, real: str, specs: tuple[str, ...], expected: str
) -> None:
    assert target_outcome(tool, lexical, real, *specs) == expected


@pytest.mark.parametrize(
    ("specs", "host", "expected"),
    [
        (("allow docs.python.org",), "docs.python.org", "allow"),
        (("allow docs.python.org",), "evil.example", "none"),
        (("allow *.python.org",), "docs.python.org", "allow"),
        (("allow *", "deny evil.example"), "evil.example", "deny"),
        (("allow *",), None, "none"),
    ],
)
def test_host_rules(specs: tuple[str, ...], host: str | None, expected: str) -> None:
    rules = RuleSet(
        Rule(tool="web_fetch", action=action, pattern=pattern)
        for action, pattern in (spec.split(" ", 1) for spec in specs)
    )
    match = match_host_rules("web_fetch", host, rules, now_ms=0, fingerprint=None)
    assert match.outcome == expected


@pytest.mark.parametrize(
    "fields",
    [
        {"tool": "read_file", "pattern": "../elsewhere/*"},
        {"tool": "grep", "pattern": ""},
        {"tool": "web_fetch", "pattern": "https://docs.python.org/3/"},
        {"tool": "web_fetch", "pattern": "docs.python.org/3"},
    ],
)
def test_invalid_boundary_rules(fields: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        Rule.model_validate(fields)


def test_equal_host_rules_share_a_key() -> None:
    assert (
        Rule(tool="web_fetch", pattern="Docs.Python.org").key
        == Rule(tool="web_fetch", pattern="docs.python.org").key
    )


@pytest.mark.parametrize(
    ("tool", "args", "pattern"),
    [
        ("read_file", {"path": "/etc/hosts"}, "/etc/*"),
        ("read_file", {"path": "~/notes/a.txt"}, "/home/u/notes/*"),
        ("read_file", {"path": "/vmlinuz"}, "/vmlinuz"),
        ("read_file", {}, None),
        ("list_dir", {"path": "/home/u/notes"}, "/home/u/notes/**"),
        ("grep", {"path": "~/notes", "pattern": "x"}, "/home/u/notes/**"),
        ("glob", {"path": "/srv/data/", "pattern": "*.csv"}, "/srv/data/**"),
        ("list_dir", {"path": "/"}, None),
        ("list_dir", {"path": "/tmp/*"}, None),
        ("web_fetch", {"url": "https://docs.python.org/3/library/"}, "docs.python.org"),
        ("web_fetch", {"url": "http://127.0.0.1:8000/x"}, "127.0.0.1"),
        ("web_fetch", {"url": "nope"}, None),
        ("web_fetch", {}, None),
    ],
)
def test_suggestions(tool: str, args: dict[str, Any], pattern: str | None) -> None:
    assert suggest_pattern(tool, args, WORKSPACE) == pattern


@pytest.mark.parametrize(
    ("tool", "args", "lexical"),
    [
        ("read_file", {"path": "/etc/hosts"}, "/etc/hosts"),
        ("list_dir", {"path": "/home/u/notes"}, "/home/u/notes"),
        ("grep", {"path": "/home/u/notes"}, "/home/u/notes/a.txt"),
    ],
)
def test_read_suggestions_cover_the_call(tool: str, args: dict[str, Any], lexical: str) -> None:
    pattern = suggest_pattern(tool, args, WORKSPACE)
    assert pattern is not None
    assert target_outcome(tool, lexical, lexical, f"allow {pattern}") == "allow"


def test_host_suggestion_covers_the_host_only() -> None:
    pattern = suggest_pattern("web_fetch", {"url": "https://docs.python.org/3/"}, WORKSPACE)
    rules = RuleSet([Rule(tool="web_fetch", pattern=pattern or "")])
    allowed = match_host_rules("web_fetch", "docs.python.org", rules, now_ms=0, fingerprint=None)
    other = match_host_rules("web_fetch", "python.org", rules, now_ms=0, fingerprint=None)
    assert (allowed.outcome, other.outcome) == ("allow", "none")
