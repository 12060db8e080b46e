"""`Engine`: launches the durable engine (DBOS) for this process and starts runs by id.

DBOS and its database layer take seconds to import on a busy machine, so they are imported
when the engine launches, not when the app is assembled (a process with the scheduler off, or
a command that never starts it, does not pay for them).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jarvis.app.unattended.workflows import Runtime


# DBOS 3.4's schema migrations are not safe against each other: processes launching together
# on a fresh PostgreSQL database failed with "tuple concurrently updated" (one exited at start).
_LAUNCH_LOCK = 0x4A415257  # "JARW", beside the stores' schema lock
_LAUNCH_LOCK_POLL_SEC = 0.1


def _took(conn: Any) -> bool:
    row = conn.execute("SELECT pg_try_advisory_lock(%s)", (_LAUNCH_LOCK,)).fetchone()
    return bool(row and row[0])


@contextmanager
def _one_launch_at_a_time(database_url: str) -> Iterator[None]:
    """On PostgreSQL, hold a session advisory lock while DBOS launches (and migrates)."""
    if not database_url.startswith(("postgresql:", "postgres:")):
        yield  # SQLite: one engine file per home, one process
        return
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        # Asked again, not waited for in one statement: a waiting statement holds a snapshot,
        # and DBOS's CREATE INDEX CONCURRENTLY in the launching process waits for every
        # snapshot to end — both would wait for ever.
        while not _took(conn):
            time.sleep(_LAUNCH_LOCK_POLL_SEC)
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LAUNCH_LOCK,))


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
        from dbos import DBOS

        from jarvis.app.unattended import engine_quiet
        from jarvis.app.unattended.workflows import _PROCESS

        if _PROCESS.runtime is not None:
            raise RuntimeError("an unattended engine already runs in this process")
        _PROCESS.runtime = runtime
        _PROCESS.incarnation = uuid.uuid4().hex
        config: dict[str, Any] = {}
        if self.schema:
            config["dbos_system_schema"] = self.schema
        dbos = DBOS(
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
                # Jarvis uses no DBOS send/recv or events, so this thread only wakes to find
                # nothing to check: DBOS's default second, not 0.2 s (idle CPU).
                "notification_listener_polling_interval_sec": 1.0,
                # The PostgreSQL notifier sends those messages' NOTIFYs: none to send.
                "notification_coalesce_sec": engine_quiet.NOTIFY_COALESCE_SEC,
            }
        )
        engine_quiet.prepare(dbos)  # DBOS's once-a-second polls: slower, woken when needed
        try:
            with _one_launch_at_a_time(self.database_url):
                DBOS.launch()
        except BaseException:
            _PROCESS.runtime = None
            DBOS.destroy()
            raise
        self.launched = True

    def destroy(self) -> None:
        if self.launched:
            from dbos import DBOS

            from jarvis.app.unattended.workflows import _PROCESS

            DBOS.destroy()
            self.launched = False
            _PROCESS.runtime = None

    async def start(self, workflow_id: str, kind: str, ref: str, due: str) -> None:
        """Start the run unless a run with this id exists (then nothing happens)."""
        from dbos import DBOS, SetWorkflowID

        from jarvis.app.unattended.workflows import unattended_workflow

        with SetWorkflowID(workflow_id):
            await DBOS.start_workflow_async(unattended_workflow, kind, ref, due)

    async def runs(self, prefix: str, limit: int = 20) -> list[RunRecord]:
        """The newest runs whose id starts with `prefix`, newest first."""
        from dbos import DBOS

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
        from dbos import DBOS

        handle: Any = await DBOS.retrieve_workflow_async(workflow_id)
        output = await handle.get_result()
        return json.loads(output) if isinstance(output, str) else {}
