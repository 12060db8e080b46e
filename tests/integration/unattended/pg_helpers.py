"""Looking at the engine's rows and the shared stores from outside the servers."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

FAST_TICKS = {"JARVIS_SCHEDULER__TICK_SEC": "0.2"}


async def runs(dsn: str, prefix: str) -> list[tuple[str, str, str | None, str | None]]:
    """(id, status, output, executor) of the engine's workflows whose id starts with prefix."""
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        cursor = await conn.execute(
            "SELECT workflow_uuid, status, output, executor_id FROM workflow_status "
            "WHERE workflow_uuid LIKE %s ORDER BY created_at",
            (prefix + "%",),
        )
        return [tuple(row) for row in await cursor.fetchall()]  # type: ignore[misc]


async def until(check: Any, timeout: float = 90) -> Any:
    """Poll an async condition until it returns something truthy (raises on timeout)."""
    async with asyncio.timeout(timeout):
        while True:
            try:
                found = await check()
            except psycopg.errors.UndefinedTable:  # the engine has not made its tables yet
                found = None
            if found:
                return found
            await asyncio.sleep(0.1)


async def add_loop(dsn: str, loop_id: str, text: str, due_ms: int, now_ms: int) -> None:
    data = {
        "id": loop_id,
        "agent_id": "main",
        "user_id": "local",
        "session_id": "s",
        "description": text,
        "due_ms": due_ms,
        "status": "open",
        "created_ms": now_ms,
        "updated_ms": now_ms,
    }
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute(
            "INSERT INTO jarvis_open_loops (id, agent_id, user_id, session_id, status, "
            "updated_ms, data) VALUES (%s, 'main', 'local', 's', 'open', %s, %s)",
            (loop_id, now_ms, Jsonb(data)),
        )


async def close_loop(dsn: str, loop_id: str, due_ms: int) -> None:
    """Mark the loop done and move its due time to `due_ms`, in one update."""
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute(
            "UPDATE jarvis_open_loops SET status = 'done', data = jsonb_set(jsonb_set(data, "
            "'{status}', '\"done\"'), '{due_ms}', %s) WHERE id = %s",
            (Jsonb(due_ms), loop_id),
        )
