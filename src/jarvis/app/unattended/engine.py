"""The durable engine (DBOS, see docs/architecture.md): one workflow per unattended run.

Every run is the workflow `jarvis_unattended(kind, ref, due)` started with a deterministic id
(`sched:<id>:<due>`, `remind:<loop>:<offset>`, `goal:<id>:<turn>`). DBOS keeps one row per id,
so the same run started by several processes runs once.

The workflow has two steps. `_begin` records which process incarnation began the run; `_run`
does the work. After a kill, DBOS recovers the workflow when a process with the same executor
id starts again: if `_begin` had completed in an earlier incarnation, the run had started, and
`_run` records it as interrupted (failed) instead of running the turn a second time.

DBOS is one per process (a module-level singleton), so the process's runtime is too.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from dbos import DBOS, SetWorkflowID

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


@dataclass(frozen=True)
class RunRecord:
    workflow_id: str
    status: str  # DBOS: PENDING, SUCCESS, ERROR, ...
    created_ms: int
    result: dict[str, Any]


class Engine:
    """Launches DBOS for this process and starts runs by id."""

    def __init__(
        self, database_url: str, executor_id: str, version: str, schema: str | None = None
    ) -> None:
        self.database_url = database_url
        self.executor_id = executor_id
        self.version = version
        self.schema = schema  # PostgreSQL: the engine's tables live here (default "dbos")
        self.launched = False

    def launch(self, runtime: Runtime) -> None:
        if _PROCESS.runtime is not None:
            raise RuntimeError("an unattended engine already runs in this process")
        _PROCESS.runtime = runtime
        _PROCESS.incarnation = uuid.uuid4().hex
        config: dict[str, Any] = {}
        if self.schema:
            config["dbos_system_schema"] = self.schema
        DBOS(
            config={
                **config,  # type: ignore[typeddict-item]
                "name": "jarvis",
                "system_database_url": self.database_url,
                "executor_id": self.executor_id,
                # Fixed, so a restarted process recovers what the previous one left.
                "application_version": self.version,
                "log_level": "WARNING",
                # A few connections per process: every process also has the app's own pools.
                "sys_db_pool_size": 4,
                "notification_listener_polling_interval_sec": 0.2,
            }
        )
        try:
            DBOS.launch()
        except BaseException:
            _PROCESS.runtime = None
            DBOS.destroy()
            raise
        self.launched = True

    def destroy(self) -> None:
        if self.launched:
            DBOS.destroy()
            self.launched = False
            _PROCESS.runtime = None

    async def start(self, workflow_id: str, kind: str, ref: str, due: str) -> None:
        """Start the run unless a run with this id exists (then nothing happens)."""
        with SetWorkflowID(workflow_id):
            await DBOS.start_workflow_async(unattended_workflow, kind, ref, due)

    async def runs(self, prefix: str, limit: int = 20) -> list[RunRecord]:
        """The newest runs whose id starts with `prefix`, newest first."""
        found = await DBOS.list_workflows_async(
            workflow_id_prefix=prefix, sort_desc=True, limit=limit, load_input=False
        )
        records = []
        for status in found:
            try:
                result = json.loads(status.output) if isinstance(status.output, str) else {}
            except ValueError:
                result = {}
            records.append(
                RunRecord(status.workflow_id, status.status, status.created_at or 0, result)
            )
        return records

    async def wait(self, workflow_id: str) -> dict[str, Any]:
        handle: Any = await DBOS.retrieve_workflow_async(workflow_id)
        output = await handle.get_result()
        return json.loads(output) if isinstance(output, str) else {}
