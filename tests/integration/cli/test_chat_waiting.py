"""The terminal between Enter and the first token: a spinner with the elapsed time and "Ctrl-C
stops" on a terminal, nothing of it when the output is piped (issue 24 item 5)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from jarvis.common.i18n import t
from tests.integration.cli.test_chat_pty import JARVIS, finish, spawn
from tests.support.hang import HANG_GUARD_SEC


def slow_model(home: Path) -> dict[str, str]:
    """A scripted model that takes a while before its first token (as a local model does)."""
    script = home / "script.json"
    script.write_text(json.dumps([{"text": "the answer", "delay_sec": 3}]), encoding="utf-8")
    return {
        "JARVIS_MODEL__PROVIDER": "faux",
        "JARVIS_MODEL__MODEL": "faux",
        "JARVIS_MODEL__SCRIPT": str(script),
        "JARVIS_OPENLOOP__ENABLED": "false",
        "LANG": "en_US.UTF-8",
        "JARVIS_LANGUAGE": "en",
    }


def test_a_terminal_shows_the_spinner_until_the_first_token(tmp_path: Path) -> None:
    child = spawn(tmp_path, **slow_model(tmp_path))
    child.sendline("hello")
    # Shown while the model has not answered (before: nothing until the answer came).
    assert child.expect(["Ctrl-C stops", "the answer"]) == 0
    child.expect("the answer")
    finish(child)


def test_piped_output_has_no_spinner(tmp_path: Path) -> None:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    environment.update(
        JARVIS_HOME=str(tmp_path), JARVIS_WORKSPACE=str(tmp_path), **slow_model(tmp_path)
    )
    done = subprocess.run(
        [JARVIS, "chat"],
        input="hello\n/exit\n",
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        timeout=HANG_GUARD_SEC,
        check=False,
    )
    assert "the answer" in done.stdout, done.stdout + done.stderr
    assert "Ctrl-C" not in done.stdout and "\x1b[?25l" not in done.stdout


def test_the_waiting_line_in_both_languages() -> None:
    from jarvis.ui.cli.waiting import waiting_text

    assert waiting_text(12.4, "en") == "Thinking… 12s · Ctrl-C stops"
    assert waiting_text(3, "ko") == t("terminal.waiting", "ko", seconds="3")
    assert "Ctrl-C" in waiting_text(3, "ko")
