"""The sandbox is on by default (`auto`): through the real server with no sandbox setting, an
approved bash line cannot write outside the workspace; without bubblewrap `auto` says so once,
in one line, in the person's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jarvis.core.config import SecuritySettings
from jarvis.core.confine import Confiner
from tests.sandbox.world import LIMITS
from tests.support.live_server import Tab, live_server


def bash(command: str) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


def test_the_default_is_auto() -> None:
    assert SecuritySettings().sandbox == "auto"


async def test_by_default_an_approved_line_stays_in_the_sandbox(
    bwrap: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    home = tmp_path / "home"
    home.mkdir()
    script = [bash(f"echo in > inside; echo out > {outside}/escaped"), "done"]
    with live_server(home, script) as server:
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        await tab.send(type="prompt", text="run it")
        request = await tab.next("approval_request")
        await tab.send(type="approval", id=request["id"], answer="allow")
        end = await tab.next("tool_execution_end")
        await tab.next("agent_end")
        await tab.close()
    assert (home / "inside").read_text() == "in\n"
    assert not (outside / "escaped").exists(), end


def test_auto_without_bubblewrap_says_so_in_korean_too(tmp_path: Path) -> None:
    box = Confiner("auto", LIMITS, tmp_path, None, bwrap="/nonexistent/ko/bwrap", language="ko")
    line = box.announce()
    assert line is not None and "\n" not in line and "게이트만으로" in line
