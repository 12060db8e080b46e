"""`jarvis schedules` as a user runs it: real processes on the embedded engine."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.integration.cli.test_chat_cli import JARVIS
from tests.integration.unattended.helpers import write_schedule
from tests.support.hang import HANG_GUARD_SEC


def jarvis(
    home: Path, *args: str, command: str = "schedules", **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    environment.update(
        JARVIS_HOME=str(home),
        JARVIS_WORKSPACE=str(home),
        JARVIS_MODEL__PROVIDER="faux",
        JARVIS_MODEL__SCRIPT=str(home / "script.json"),
        JARVIS_OPENLOOP__ENABLED="false",
        **env,
    )
    return subprocess.run(
        [JARVIS, command, *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=HANG_GUARD_SEC,
        cwd=home,
    )


@pytest.mark.timeout(900)  # eight process starts on a busy machine
def test_list_enable_grant_run_disable(tmp_path: Path) -> None:
    (tmp_path / "script.json").write_text(json.dumps(["백업 3개 확인"]), encoding="utf-8")
    write_schedule(tmp_path, "backup", when="0 3 * * *", enabled=False, tools=["bash"])
    listed = jarvis(tmp_path, "list")
    assert listed.returncode == 0, listed.stderr
    assert "backup [off] 0 3 * * *" in listed.stdout and "bash:missing" in listed.stdout

    refused = jarvis(tmp_path, "enable", "backup")
    assert refused.returncode == 2 and "TOOL_APPROVAL_REQUIRED" in refused.stderr
    assert jarvis(tmp_path, "grant", "backup", "bash", "--user", "bob").returncode == 2
    granted = jarvis(tmp_path, "grant", "backup", "bash")
    assert granted.returncode == 0 and "bash: granted" in granted.stdout
    assert jarvis(tmp_path, "enable", "backup").stdout.strip() == "backup: on"

    ran = jarvis(tmp_path, "run", "backup")
    assert ran.returncode == 0, ran.stderr
    assert ": ok" in ran.stdout and "백업 3개 확인" in ran.stdout
    again = jarvis(tmp_path, "list")
    assert "backup [on]" in again.stdout and "last ok" in again.stdout
    assert jarvis(tmp_path, "disable", "backup").stdout.strip() == "backup: off"
