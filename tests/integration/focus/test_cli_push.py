"""`jarvis focus start|pause|resume|stop` run in a terminal — another process — reach an open
window of the owner without a reload: a real server, a real `jarvis focus` process and a
WebSocket tab that waits for the `focus_state` / `focus_panel` events each change sends."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from jarvis.app.focus.outbox import outbox
from jarvis.core.focus.store import FocusStore
from tests.integration.unattended.helpers import MANUAL
from tests.support.live_server import Tab, live_server
from tests.support.processes import JARVIS, healthy, serve


async def jarvis_focus(home: Path, *args: str) -> str:
    """A `jarvis focus …` process on the server's data dir, as typed in another terminal."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    env.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home), JARVIS_LANGUAGE="en")
    process = await asyncio.create_subprocess_exec(
        JARVIS, "focus", *args, env=env, cwd=home,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await process.communicate()
    assert process.returncode == 0, out.decode()
    return out.decode()


async def told(tab: Tab) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """One change as a window hears it: its `focus_state`, then every area's `focus_panel`
    (as the server's own changes send them)."""
    state = await tab.next("focus_state")
    areas: dict[str, dict[str, Any]] = {}
    while len(areas) < 4:
        panel = await tab.next("focus_panel")
        assert panel["task_id"] == state["task_id"]
        areas[panel["area"]] = panel
    return state, areas


async def test_focus_changes_made_in_a_terminal_reach_an_open_window(tmp_path: Path) -> None:
    with live_server(tmp_path, [], scheduler=MANUAL) as server:
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")

        printed = await jarvis_focus(tmp_path, "start", "compare three durable workflow engines")
        task_id = printed.strip().splitlines()[-1]
        state, areas = await told(tab)
        assert (state["task_id"], state["state"], state["previous"]) == (task_id, "planning", "")
        assert state["objective"] == "compare three durable workflow engines"
        assert areas["plan"]["busy"] and "created: compare" in areas["log"]["markdown"]

        for action, previous, now in [
            ("pause", "planning", "paused"),
            ("resume", "paused", "planning"),
            ("stop", "planning", "cancelled"),
        ]:
            await jarvis_focus(tmp_path, action, task_id)
            state, areas = await told(tab)
            assert (state["task_id"], state["previous"], state["state"]) == (task_id, previous, now)
            assert f"{action}: {previous} → {now}" in areas["log"]["markdown"]
            assert areas["plan"]["busy"] == (now == "planning")
            # claimed and sent once: nothing is left for another process to send again
            assert [p.name for p in outbox(tmp_path).iterdir()] == []

        task = FocusStore(tmp_path).load(task_id)
        assert task is not None and task.status == "cancelled"
        await tab.close()


@pytest.mark.postgres
async def test_two_serving_processes_each_window_hears_each_terminal_change_once(
    tmp_path: Path, dsn: str
) -> None:
    """Two `jarvis serve` processes on one PostgreSQL and one data dir both watch the outbox:
    one of them claims each change and NOTIFY takes it to the other's windows — every window
    hears every change exactly once, in order."""
    home = tmp_path / "home"
    quiet = {"JARVIS_SCHEDULER__TICK_SEC": "3600"}  # nothing plans the task meanwhile
    with serve(home, dsn, [], quiet) as (a, _), serve(home, dsn, [], quiet) as (b, _):
        await asyncio.gather(healthy(a), healthy(b))
        tabs = [await Tab.open(f"ws://{address}/ws") for address in (a, b)]
        for tab in tabs:
            await tab.next("session")
        printed = await jarvis_focus(home, "start", "watch two processes")
        task_id = printed.strip().splitlines()[-1]
        for action in ("pause", "resume", "stop"):
            await jarvis_focus(home, action, task_id)
        for tab in tabs:
            states = []
            while not states or states[-1] != "cancelled":
                state, _areas = await told(tab)
                states.append(state["state"])
            assert states == ["planning", "paused", "planning", "cancelled"]
            await tab.close()
        assert [p.name for p in outbox(home).iterdir()] == []
