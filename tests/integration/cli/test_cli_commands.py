"""The `jarvis` command itself: help, version, order, and the admin commands' edges."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.hang import HANG_GUARD_SEC

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")
# What `jarvis --help` must not import: each costs hundreds of milliseconds at start. (typer
# itself loads pydantic to read a sub-command's parameters, so only the top level is held to it.)
HEAVY = ("jarvis.app", "jarvis.core", "openai", "mcp", "fastapi", "uvicorn", "rich", "psycopg")


def jarvis(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    environment.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home), **env)
    return subprocess.run(
        [JARVIS, *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=HANG_GUARD_SEC,
        cwd=home,
    )


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["chat", "--help"]])
def test_help_and_version_import_nothing_heavy(args: list[str]) -> None:
    probe = (
        "import sys\n"
        "from jarvis.ui.cli.main import app\n"
        f"sys.argv = ['jarvis', *{args!r}]\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        "print('\\nLOADED', ' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    loaded = done.stdout.rsplit("LOADED ", 1)[1].split()
    heavy = [m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    if args == ["chat", "--help"]:  # it lists the command table's fixed commands: data only
        heavy = [m for m in heavy if m not in ("jarvis.core", "jarvis.core.commands")]
        heavy = [m for m in heavy if not m.startswith("jarvis.core.commands.")]
        assert not any(m.startswith("jarvis.core.") for m in loaded if "commands" not in m)
    assert heavy == [], heavy
    assert args == ["chat", "--help"] or "pydantic" not in loaded


def test_top_level_help_lists_commands_in_order_and_version(tmp_path: Path) -> None:
    done = jarvis(tmp_path, "--help")
    assert done.returncode == 0
    commands = done.stdout.split("Commands:", 1)[1].split()
    order = [c for c in commands if c in ("serve", "chat", "openloop", "approvals", "audit")]
    assert order[:2] == ["serve", "chat"]
    assert jarvis(tmp_path, "--version").stdout.startswith("jarvis 0.")


def test_chat_help_lists_keys_and_slash_commands(tmp_path: Path) -> None:
    text = jarvis(tmp_path, "chat", "--help").stdout
    for expected in (
        "Ctrl-C",
        "Ctrl-D",
        "a            allow once",
        "/sessions",
        "/resume",
        "/openloop",
    ):
        assert expected in text, expected
    assert "answer in words" in text


def test_openloop_list_done_and_dismiss(tmp_path: Path) -> None:
    listed = jarvis(tmp_path, "openloop", "list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == jarvis(tmp_path, "openloop").stdout
    missing = jarvis(tmp_path, "openloop", "done", "nope1234")
    assert missing.returncode == 0 and "nope1234" in missing.stdout
    assert jarvis(tmp_path, "openloop", "dismiss", "--help").returncode == 0


def test_audit_validates_its_filters_and_prints_the_zone(tmp_path: Path) -> None:
    wrong = jarvis(tmp_path, "audit", "--outcome", "allowed")
    assert wrong.returncode == 2
    assert "allow, deny, timeout, block" in wrong.stderr and "Traceback" not in wrong.stderr
    assert jarvis(tmp_path, "audit", "--limit", "0").returncode == 2


def test_audit_prints_local_time_with_the_zone(tmp_path: Path) -> None:
    record = {
        "ts_ms": 1_764_000_000_000,
        "user": "local",
        "agent": "main",
        "session": "s1",
        "turn": 1,
        "tool": "bash",
        "source": "builtin",
        "outcome": "allow",
        "reason": "user_once",
    }
    (tmp_path / "audit.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    shown = jarvis(tmp_path, "audit", JARVIS_TIMEZONE="Asia/Seoul")
    assert shown.returncode == 0, shown.stderr
    assert "2025-11-25 01:00:00 KST" in shown.stdout
    utc = jarvis(tmp_path, "audit", JARVIS_TIMEZONE="UTC").stdout
    assert "2025-11-24 16:00:00 UTC" in utc
    assert "(no audit lines match)" in jarvis(tmp_path, "audit", "--tool", "nope").stdout


def test_extensions_says_when_nothing_is_loaded(tmp_path: Path) -> None:
    done = jarvis(tmp_path, "extensions")
    assert done.returncode == 0
    assert "nothing loaded" in done.stdout
