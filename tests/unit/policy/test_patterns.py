"""What ALWAYS would save (seed 000 승인 기억 table): narrow, exact, round-trippable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jarvis.core.policy.patterns import NO_ALWAYS_REASONS, explain_pattern, suggest_pattern
from jarvis.core.policy.rules import (
    Rule,
    RuleSet,
    match_any_rules,
    match_path_rules,
    match_shell_rules,
)
from jarvis.core.policy.shell import analyze_shell

WORKSPACE = Path("/ws")


@pytest.mark.parametrize(
    ("command", "pattern"),
    [
        ("git status --short", "git status"),
        ("git status", "git status"),
        ("ls -la", "ls -la"),
        ("pwd", "pwd"),
        ('git commit -m "a b"', "git commit"),
        ("echo 'a b' c", "echo 'a b'"),
        ("./run.sh --fast x", "./run.sh --fast"),
        ("python script.py -v", "python script.py"),
        ("cat < notes.txt", "cat"),
        ("ls *", "ls '*'"),
        ("git status && git diff", None),
        ("git status; ls", None),
        ("git status | cat", None),
        ("(git status)", "git status"),
        ("git status > out.txt", None),
        ("echo $HOME", None),
        ("echo $(id)", None),
        ("FOO=1 make", None),
        ("eval git status", None),
        ("source env.sh", None),
        ("exec ls", None),
        ("env git status", None),
        ("timeout 5 pytest", None),
        ("xargs rm", None),
        ("sudo ls", None),
        ("/usr/bin/env ls", None),
        ("sh -c 'git status'", None),
        ("bash -lc ls", None),
        ("python -c 'print(1)'", None),
        ("node -e 'x'", None),
        ("if true; then ls; fi", None),
        ("", None),
        ('git "status', None),
    ],
)
def test_bash_suggestions(command: str, pattern: str | None) -> None:
    assert suggest_pattern("bash", {"command": command}, WORKSPACE) == pattern


@pytest.mark.parametrize(
    ("tool", "path", "pattern"),
    [
        ("write_file", "src/app/main.py", "src/app/*"),
        ("edit_file", "src/app/main.py", "src/app/*"),
        ("write_file", "./src/app/main.py", "src/app/*"),
        ("write_file", "src/app/../lib/util.py", "src/lib/*"),
        ("write_file", "/ws/src/app/main.py", "src/app/*"),
        ("write_file", "README.md", "README.md"),  # not `*`: it would cover Makefile, .envrc
        ("write_file", "/ws/Makefile", "Makefile"),
        ("write_file", "/etc/hosts", "/etc/*"),
        ("write_file", "../other/x.txt", "/other/*"),
        ("write_file", "/x.txt", "/x.txt"),
        ("write_file", "src/*.py", None),
        ("write_file", "/ws", None),
        ("write_file", "", None),
    ],
)
def test_path_suggestions(tool: str, path: str, pattern: str | None) -> None:
    assert suggest_pattern(tool, {"path": path}, WORKSPACE) == pattern


@pytest.mark.parametrize(
    ("tool", "args"),
    [("bash", {}), ("bash", {"command": ["ls"]}), ("write_file", {}), ("edit_file", {"path": 3})],
)
def test_missing_or_odd_arguments_offer_no_always(tool: str, args: dict[str, Any]) -> None:
    assert suggest_pattern(tool, args, WORKSPACE) is None


def test_other_tools_get_star() -> None:
    assert suggest_pattern("web_search", {"query": "x"}, WORKSPACE) == "*"


@pytest.mark.parametrize(
    "command", ["git status --short", "echo 'a b' c", "ls *", "pwd", "printf '%s\\n' x"]
)
def test_bash_suggestion_round_trips_and_covers_the_call(command: str) -> None:
    pattern = suggest_pattern("bash", {"command": command}, WORKSPACE)
    assert pattern is not None
    rules = RuleSet([Rule(tool="bash", pattern=pattern)])
    match = match_shell_rules(analyze_shell(command), rules, now_ms=0, fingerprint=None)
    assert match.outcome == "allow"


@pytest.mark.parametrize("path", ["src/app/main.py", "README.md", "/etc/hosts"])
def test_path_suggestion_covers_the_call(path: str) -> None:
    pattern = suggest_pattern("write_file", {"path": path}, WORKSPACE)
    assert pattern is not None
    rules = RuleSet([Rule(tool="write_file", pattern=pattern)])
    match = match_path_rules(
        "write_file", path, rules, workspace=WORKSPACE, now_ms=0, fingerprint=None
    )
    assert match.outcome == "allow"


def test_star_suggestion_covers_the_tool() -> None:
    rules = RuleSet([Rule(tool="web_fetch", pattern="*")])
    assert match_any_rules("web_fetch", rules, now_ms=0, fingerprint=None).outcome == "allow"


@pytest.mark.parametrize(
    ("tool", "args", "reason"),
    [
        ("bash", {"command": "git status && git diff"}, "compound"),
        ("bash", {"command": "if true; then ls; fi"}, "compound"),
        ("bash", {"command": "git status > out"}, "unsafe"),
        ("bash", {"command": "echo $(id)"}, "compound"),  # `id` is a command too
        ("bash", {"command": 'cat <<E"O"F\nx\nE"O"F\n'}, "unsafe"),
        ("bash", {"command": "echo a\rb"}, "unsafe"),
        ("bash", {"command": "echo \u200bx"}, "unsafe"),
        ("bash", {"command": "FOO=1 make"}, "unsafe"),
        ("bash", {"command": ""}, "unsafe"),
        ("bash", {"command": "env git status"}, "wrapper"),
        ("bash", {"command": "find . -name x"}, "wrapper"),
        ("bash", {"command": "xargs rm"}, "wrapper"),
        ("bash", {"command": "sh -c 'ls'"}, "inline_code"),
        ("bash", {"command": "eval ls"}, "unsafe"),
        ("bash", {"command": "bash <<'EOF'\nls\nEOF\n"}, "inline_code"),
        ("bash", {"command": "git -c core.pager=sh log"}, "runs_code"),
        ("bash", {"command": "git log --ext-diff"}, "runs_code"),
        ("bash", {"command": "pytest -p evil"}, "runs_code"),
        ("bash", {"command": "sed 's/a/id/e' f"}, "runs_code"),
        ("bash", {"command": "pytest -q /tmp/evil"}, "outside_workspace"),
        ("bash", {"command": "mysql -pHunter2 db"}, "secret"),
        ("bash", {"command": "curl https://me:pw123456@h/x"}, "secret"),
        ("bash", {"command": "export TOKEN=abcdef"}, "secret"),
        ("bash", {}, "invalid_args"),
        ("bash", {"command": ["ls"]}, "invalid_args"),
        ("write_file", {"path": "/ws"}, "root"),
        ("write_file", {"path": "src/*.py"}, "glob_chars"),
        ("write_file", {}, "invalid_args"),
    ],
)
def test_why_no_always_is_offered(tool: str, args: dict[str, Any], reason: str) -> None:
    assert explain_pattern(tool, args, WORKSPACE) == (None, reason)
    assert reason in NO_ALWAYS_REASONS


@pytest.mark.parametrize(
    "command",
    [
        "git status --short", "sed -i s/a/b/ f", "curl -o out https://h/x", "python x.py -v",
        "npm run build", "git config user.name me", "find2 . -delete", "ls -la src",
        "make -C sub test", "tar -czf a.tgz src", "git log -p -1", "awk '{print $1}' f",
    ],
)  # fmt: skip
def test_every_suggestion_is_a_valid_rule_that_covers_its_call(command: str) -> None:
    pattern, reason = explain_pattern("bash", {"command": command}, WORKSPACE)
    assert pattern is not None and reason is None
    rules = RuleSet([Rule(tool="bash", pattern=pattern)])
    assert match_shell_rules(analyze_shell(command), rules, now_ms=0, fingerprint=None).rule
