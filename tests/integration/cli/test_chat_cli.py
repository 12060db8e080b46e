"""`jarvis chat` as a user runs it: a real process, stdin lines, printed output."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.hang import HANG_GUARD_SEC

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")


def chat(home: Path, lines: list[str], *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    environment.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home), **env)
    return subprocess.run(
        [JARVIS, "chat", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=environment,
        timeout=HANG_GUARD_SEC,  # a hang guard, generous for a busy machine
        cwd=home,
    )


def test_demo_streams_an_answer_and_shows_a_tool_call(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    done = chat(tmp_path, ["안녕", "파일 목록 보여줘", "/sessions", "/exit"], "--demo")
    assert done.returncode == 0, done.stderr
    assert "데모 모드" in done.stdout
    assert "⚙ list_dir" in done.stdout and "✓ list_dir" in done.stdout
    assert "notes.txt" in done.stdout
    assert "2턴" in done.stdout  # /sessions lists this session with its two turns
    assert "Traceback" not in done.stderr


def test_resume_a_session_by_id(tmp_path: Path) -> None:
    first = chat(tmp_path, ["첫 질문", "/exit"], "--demo")
    session_id = first.stdout.split("세션 ", 1)[1].split()[0]
    again = chat(tmp_path, ["/sessions", "/exit"], "--demo", "--session", session_id)
    assert again.returncode == 0
    assert f"* {session_id}" in again.stdout and "첫 질문" in again.stdout
    missing = chat(tmp_path, ["/exit"], "--demo", "--session", "nope")
    assert missing.returncode == 2 and "nope" in missing.stderr


def test_unreachable_model_is_one_clear_line(tmp_path: Path) -> None:
    done = chat(
        tmp_path,
        ["hello", "/exit"],
        JARVIS_MODEL__BASE_URL="http://127.0.0.1:9/v1",
        JARVIS_MODEL__MAX_RETRIES="0",
    )
    assert done.returncode == 0
    assert "JARVIS_MODEL__BASE_URL" in done.stdout and "jarvis chat --demo" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_a_wrong_setting_stops_start_up_with_one_line(tmp_path: Path) -> None:
    done = chat(tmp_path, ["/exit"], "--demo", JARVIS_LOOP__MAX_TURNS="many")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "JARVIS_LOOP__MAX_TURNS" in done.stderr


def test_invalid_input_is_refused_with_a_message(tmp_path: Path) -> None:
    done = chat(tmp_path, ["<script>x</script>", "/exit"], "--demo")
    assert "스크립트 패턴" in done.stdout


def jarvis(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    environment.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home))
    return subprocess.run(
        [JARVIS, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=HANG_GUARD_SEC,  # a hang guard, generous for a busy machine
        cwd=home,
    )


def test_deny_allow_always_and_the_rule_survives_a_restart(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    first = chat(
        tmp_path,
        ["!git status", "d", "!git status", "a", "!git status --short", "A", "/exit"],
        "--demo",
    )
    assert "승인이 거부되어 bash 실행을 멈췄습니다" in first.stdout
    assert "✓ bash · 이번 한 번 허용" in first.stdout
    assert "✓ bash · 항상 허용 (규칙 저장: bash git status)" in first.stdout
    assert "✗ bash · 거부했습니다" in first.stdout and "approval_denied" not in first.stdout
    assert "pattern: git status" in (tmp_path / "approvals" / "main.yaml").read_text()
    again = chat(
        tmp_path, ["!git status -s", "!git status && touch hacked", "d", "/exit"], "--demo"
    )
    assert "✓ bash · 저장된 규칙으로 허용 (approvals/main.yaml)" in again.stdout
    assert again.stdout.count("⚡ 승인 요청") == 1  # only the chained command asked
    assert not (tmp_path / "hacked").exists()


def test_approvals_list_check_revoke_and_audit(tmp_path: Path) -> None:
    (tmp_path / "approvals.yaml").write_text(
        "# shared rules\nrules:\n  - {tool: bash, pattern: git status}  # safe\n", encoding="utf-8"
    )
    listed = jarvis(tmp_path, "approvals", "list")
    assert "allow bash git status" in listed.stdout
    check = jarvis(
        tmp_path,
        "approvals",
        "check",
        "--tool",
        "bash",
        "--args",
        '{"command": "git status --short"}',
        "--json",
    )
    assert json.loads(check.stdout) == {
        "tool": "bash",
        "outcome": "allow",
        "reason": "rule:approvals.yaml",
        "rule": "approvals.yaml: allow bash git status",
    }
    lines = (
        "\n".join(
            json.dumps(c)
            for c in [
                {"tool": "bash", "args": {"command": "git status && rm -rf ~"}},
                {"tool": "bash", "args": {"command": "git stash"}},
                {"tool": "read_file", "args": {"path": "x"}},
            ]
        )
        + "\nnot json\n"
    )
    decisions = [
        json.loads(line)
        for line in jarvis(tmp_path, "approvals", "check", "-", stdin=lines).stdout.splitlines()
    ]
    assert [d.get("reason", d.get("error", "")[:8]) for d in decisions] == [
        "dangerous",
        "approval_required",
        "not_required",
        "bad line",
    ]
    assert decisions[1]["detail"] == "git stash"  # the pattern ALWAYS would offer
    assert jarvis(tmp_path, "approvals", "check", "--tool", "bash", "--args", "[1]").returncode == 2
    revoked = jarvis(
        tmp_path, "approvals", "revoke", "--tool", "bash", "--pattern", "git status", "--shared"
    )
    assert "removed 1" in revoked.stdout
    assert "# shared rules" in (tmp_path / "approvals.yaml").read_text()
    chat(tmp_path, ["!ls", "d", "/exit"], "--demo")
    audit = jarvis(tmp_path, "audit", "--json")
    revocation, record = [json.loads(line) for line in audit.stdout.splitlines()]
    assert (revocation["outcome"], revocation["reason"]) == ("rule_revoked", "approvals.yaml")
    assert revocation["rule"] == "approvals.yaml: allow bash git status"
    assert (record["tool"], record["outcome"], record["reason"]) == ("bash", "deny", "user_deny")
    assert "ls" not in json.dumps({k: v for k, v in record.items() if k != "tool"})


def test_postgres_backend_errors_are_one_line(tmp_path: Path) -> None:
    no_dsn = chat(tmp_path, ["/exit"], "--demo", JARVIS_STORAGE__BACKEND="postgres")
    assert no_dsn.returncode == 2 and "JARVIS_STORAGE__POSTGRES_DSN" in no_dsn.stderr
    down = chat(
        tmp_path,
        ["/exit"],
        "--demo",
        JARVIS_STORAGE__BACKEND="postgres",
        JARVIS_STORAGE__POSTGRES_DSN="postgresql://nobody@127.0.0.1:9/none",
    )
    assert down.returncode == 2 and "cannot use the database" in down.stderr
    assert "Traceback" not in no_dsn.stderr + down.stderr
    assert len(down.stderr.strip().splitlines()) == 1


def test_workers_need_the_shared_backend(tmp_path: Path) -> None:
    done = jarvis(tmp_path, "serve", "--workers", "2")
    assert done.returncode == 2 and "JARVIS_STORAGE__BACKEND=postgres" in done.stderr


def test_extensions_lists_what_loaded_and_what_failed(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "good_tool.py").write_text(
        'TOOL_DESCRIPTION = "ok"\nasync def execute(tool_call_id, params, **kw):\n    return "x"\n'
    )
    (tmp_path / "tools" / "broken.py").write_text("def execute(:\n")
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "hello.md").write_text(
        "---\nname: hello\ndescription: hi\n---\nHi {{args}}\n"
    )
    done = jarvis(tmp_path, "extensions")
    assert done.returncode == 1, done.stderr  # something failed: scripts can tell
    assert "1 failed to load" in done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("ok ") and "good-tool" in line for line in lines)
    assert any(line.startswith("ok ") and "hello" in line for line in lines)
    assert any(line.startswith("ERR") and "broken.py" in line for line in lines)
