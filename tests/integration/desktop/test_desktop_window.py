"""`jarvis desktop`: a real Qt WebEngine window (pywebview, the `desktop` extra) under a virtual
display (xvfb-run). It starts `jarvis serve` or connects to a running one with its token URL,
logs in like a browser (the HUD's WebSocket comes up and an API call from the page is answered
200 with the cookie), and closes with status 0, stopping the server it started. A wrong token
is not logged in. Without the extra, or without a display, one line says what to do."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jarvis.ui.cli.main import app as cli
from jarvis.ui.cli.serve_port import port_taken
from tests.support.live_server import live_server
from tests.support.ports import free_port

JARVIS = Path(sys.executable).with_name("jarvis")
# A guard against a hung window, not a budget.
GUARD_SEC = 300


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    env.update({"JARVIS_HOME": str(home), "JARVIS_LANGUAGE": "en"})
    return env


def desktop(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`jarvis desktop --check …` in a virtual display (xvfb-run: installed with the machine)."""
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        if os.environ.get("CI") == "true":
            pytest.fail("xvfb-run is missing (apt-get install xvfb)")
        pytest.skip("xvfb-run is missing")
    command = [xvfb, "-a", str(JARVIS), "desktop", "--check", *args]
    return subprocess.run(
        command, env=_env(home), capture_output=True, text=True, timeout=GUARD_SEC, check=False
    )


def test_the_window_starts_serve_logs_in_and_closes_cleanly(tmp_path: Path) -> None:
    port = free_port()
    done = desktop(tmp_path, "--demo", "--port", str(port))
    assert done.returncode == 0, done.stderr[-3000:]
    assert (
        "The window opened the HUD: title JARVIS, logged in (an API call from the page: 200), "
        "WebSocket connected" in done.stdout
    )
    assert not port_taken("127.0.0.1", port)  # the server it started is stopped


async def test_the_window_connects_to_a_running_serve_with_its_token_url(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        done = await asyncio.to_thread(desktop, tmp_path, "--url", server.launch_url())
        assert done.returncode == 0, done.stderr[-3000:]
        assert "logged in (an API call from the page: 200)" in done.stdout
        wrong = await asyncio.to_thread(desktop, tmp_path, "--url", f"{server.url}/?token=nope")
        assert wrong.returncode == 1
        assert "did not get logged in" in wrong.stderr
        assert "an API call from the page: 401" in wrong.stderr  # no cookie for a wrong token


def test_without_the_extra_one_line_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "webview", None)  # as if the extra were not installed
    result = CliRunner().invoke(cli, ["desktop"], env=_env(tmp_path))
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == [
        "jarvis desktop needs the desktop extra: uv sync --extra desktop "
        "(with pip: pip install 'jarvis[desktop]')"
    ]


def test_without_a_display_one_line_says_so(tmp_path: Path) -> None:
    env = {k: v for k, v in _env(tmp_path).items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = CliRunner().invoke(cli, ["desktop"], env={**env, "DISPLAY": "", "WAYLAND_DISPLAY": ""})
    assert result.exit_code == 1
    assert "No display to open a window on" in result.output
