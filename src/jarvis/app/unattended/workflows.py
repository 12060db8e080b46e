"""The durable engine's workflow (DBOS, see docs/architecture.md): one per unattended run.

Every run is the workflow `jarvis_unattended(kind, ref, due)` started with a deterministic id
(`sched:<id>:<due>`, `remind:<loop>:<offset>`, `goal:<id>:<turn>`). DBOS keeps one row per id,
so the same run started by several processes runs once.

The workflow has two steps. `_begin` records which process incarnation began the run; `_run`
does the work. After a kill, DBOS recovers the workflow when a process with the same executor
id starts again: if `_begin` had completed in an earlier incarnation, the run had started, and
`_run` records it as interrupted (failed) instead of running the turn a second time.

DBOS is one per process (a module-level singleton), so the process's runtime is too. This
module imports DBOS (slow to import): `engine.Engine` loads it only when it launches.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from dbos import DBOS

from jarvis.common.logging import get_logger

_log = get_logger("jarvis.unattended")
WORKFLOW = "jarvis_unattended"


class Runtime(Protocol):
    """What the workflow calls: the process's unattended runtime."""

    loop: asyncio.AbstractEventLoop

    async def execute(self, kind: str, ref: str, due: str) -> dict[str, Any]: ...

    async def interrupted(self, kind: str, ref: str, due: str) -> dict[str, Any]: ...


@dataclass
class _Process:
    runtime: Runtime | None = None
    incarnation: str = ""


_PROCESS = _Process()


async def _on_app_loop(work: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run `work` on the app's event loop: DBOS recovers workflows on a loop of its own, and
    sessions, locks and sockets belong to the app's."""
    runtime = _PROCESS.runtime
    assert runtime is not None, "the unattended engine is not launched"
    if asyncio.get_running_loop() is runtime.loop:
        return await work
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, runtime.loop))


@DBOS.step(name="jarvis_unattended_begin")
async def _begin() -> str:
    return _PROCESS.incarnation


@DBOS.step(name="jarvis_unattended_run")
async def _run(kind: str, ref: str, due: str, began_in: str) -> str:
    runtime = _PROCESS.runtime
    assert runtime is not None
    if began_in != _PROCESS.incarnation:
        # Began before a crash: never repeat it silently; say it failed.
        result = await _on_app_loop(runtime.interrupted(kind, ref, due))
    else:
        result = await _on_app_loop(runtime.execute(kind, ref, due))
    return json.dumps(result, ensure_ascii=False)


@DBOS.workflow(name=WORKFLOW)
async def unattended_workflow(kind: str, ref: str, due: str) -> str:
    began_in = await _begin()
    return await _run(kind, ref, due, began_in)
