"""A path the gate cannot follow asks through the real server, never ends the turn with an error
(issue 23, item 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.live_server import Tab, live_server


def read(path: str) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": "read_file", "arguments": {"path": path}}]}


async def test_an_unresolvable_path_is_asked_about_and_the_turn_goes_on(tmp_path: Path) -> None:
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    # /proc/1/root: EACCES in a container without CAP_SYS_PTRACE (it crashed the gate), "/"
    # elsewhere (outside the workspace): asked either way.
    with live_server(tmp_path, [read("loop1/x"), read("/proc/1/root/etc/passwd")]) as server:
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        for warning in ("unresolvable_path", None):
            await tab.send(type="prompt", text="read it")
            request = await tab.next("approval_request")
            assert request["tool"] == "read_file"
            if warning:
                assert warning in request["warnings"]
            await tab.send(type="approval", id=request["id"], answer="deny")
            events = await tab.drain_until("agent_end")
            assert events[-1]["ended_by"] == "denied"
            assert not [e for e in events if e["type"] == "agent_error"]
        await tab.close()
