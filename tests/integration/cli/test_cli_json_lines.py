"""Every `--json` line of the CLI is one record per line, and a path the gate cannot follow asks
instead of ending the batch (issue 23, item 4): the real `jarvis` command, real files."""

from __future__ import annotations

import json
from pathlib import Path

from tests.integration.cli.test_chat_cli import jarvis

# What a line-based reader splits on that JSON may leave raw inside a string.
SEPARATORS = "a\u2028b\u2029c\u0085d"


def records(stdout: str, count: int) -> list[dict[str, object]]:
    lines = stdout.splitlines()  # splits on U+2028, U+2029 and U+0085 too
    assert len(lines) == count, lines
    return [json.loads(line) for line in lines]


def test_approvals_check_json_is_one_line(tmp_path: Path) -> None:
    done = jarvis(tmp_path, "approvals", "check", "--tool", SEPARATORS, "--json")
    assert done.returncode == 0, done.stderr
    (record,) = records(done.stdout, 1)
    assert record == {"tool": SEPARATORS, "outcome": "block", "reason": "unknown_tool"}


def test_approvals_check_batch_is_one_line_per_call(tmp_path: Path) -> None:
    calls = [
        {"tool": SEPARATORS},
        {"tool": "read_file", "args": {"path": f"dir{SEPARATORS}/x"}},
        {"tool": "bash", "args": {"command": f"echo '{SEPARATORS}'"}},
    ]
    stdin = "".join(json.dumps(call) + "\n" for call in calls)
    done = jarvis(tmp_path, "approvals", "check", "-", stdin=stdin)
    assert done.returncode == 0, done.stderr
    decisions = records(done.stdout, 3)
    assert decisions[0]["tool"] == SEPARATORS
    assert [d["outcome"] for d in decisions] == ["block", "allow", "ask"]


def test_audit_json_is_one_line_per_record(tmp_path: Path) -> None:
    base = {"ts_ms": 1, "user": "local", "agent": "main", "session": "s", "turn": 1}
    lines = [
        {**base, "tool": SEPARATORS, "source": "builtin", "outcome": "allow", "reason": "x"},
        {**base, "tool": "bash", "source": "builtin", "outcome": "deny", "reason": SEPARATORS},
    ]
    audit = "".join(json.dumps(line) + "\n" for line in lines)
    (tmp_path / "audit.jsonl").write_text(audit, encoding="utf-8")
    done = jarvis(tmp_path, "audit", "--json")
    assert done.returncode == 0, done.stderr
    shown = records(done.stdout, 2)
    assert {r["tool"] for r in shown} == {SEPARATORS, "bash"}
    assert SEPARATORS in {r["reason"] for r in shown}


def test_an_unresolvable_path_asks_and_the_batch_goes_on(tmp_path: Path) -> None:
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    paths = ["/proc/1/root/etc/passwd", "loop1/x", "a" * 300 + "/x", "fine.txt", "/proc/1/cwd/y"]
    stdin = "".join(json.dumps({"tool": "read_file", "args": {"path": p}}) + "\n" for p in paths)
    done = jarvis(tmp_path, "approvals", "check", "-", stdin=stdin)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    decisions = records(done.stdout, len(paths))
    assert [d["outcome"] for d in decisions] == ["ask", "ask", "ask", "allow", "ask"]
    single = jarvis(
        tmp_path,
        "approvals",
        "check",
        "--tool",
        "read_file",
        "--args",
        '{"path": "/proc/1/root/etc/passwd"}',
        "--json",
    )
    assert single.returncode == 0, single.stderr
    assert records(single.stdout, 1)[0]["outcome"] == "ask"


def test_thinking_route_json_is_one_line_per_message(tmp_path: Path) -> None:
    messages = ["hello", f"why {SEPARATORS} though?", "실행해"]
    done = jarvis(tmp_path, "thinking", "route", "--json", "-", stdin="\n".join(messages) + "\n")
    assert done.returncode == 0, done.stderr
    assert all(set(r) == {"think", "p_think", "reason"} for r in records(done.stdout, 3))
