"""Shared by the unattended tests: schedule files, and work on a live server's own loop."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from ruamel.yaml import YAML

from jarvis.app.unattended.service import Unattended
from tests.support.live_server import LiveServer

T = TypeVar("T")
# The tests tick by hand (an injected "now"); the server's own ticker waits an hour.
MANUAL = {"tick_sec": 3600}


def write_schedule(home: Path, schedule_id: str, **fields: Any) -> Path:
    path = home / "schedules" / f"{schedule_id}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"when": "every day 9:00", "prompt": "아침 요약", "owner": "local", **fields}
    with path.open("w", encoding="utf-8") as out:
        YAML(typ="safe").dump(data, out)
    return path


def unattended_of(server: LiveServer) -> Unattended:
    app = server.server.config.app
    service: Unattended = app.state.web.unattended
    return service


async def on_server(server: LiveServer, work: Coroutine[Any, Any, T]) -> T:
    """Await `work` on the server's event loop (its sessions and engine live there)."""
    runtime = unattended_of(server).runtime
    assert runtime is not None, "the engine did not start"
    future = asyncio.run_coroutine_threadsafe(work, runtime.loop)
    return await asyncio.wrap_future(future)


async def tick_all(server: LiveServer, now: int) -> list[str]:
    """One tick at `now` on the server's engine, then wait for every run it started."""
    service = unattended_of(server)
    assert service.runtime is not None
    started = await on_server(server, service.runtime.tick(now))
    for run_id in started:
        await on_server(server, service.engine.wait(run_id))
    return started
