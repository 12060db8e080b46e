"""Pending approvals in PostgreSQL: answered from any process, exactly once.

The row is inserted before the request is shown; an answer is one `UPDATE … WHERE status =
'pending'`, so two answers in any two processes cannot both win; the waiting turn wakes through
`LISTEN/NOTIFY`, with a slow poll as a safety net.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
from collections.abc import Callable
from typing import Any, cast

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from jarvis.common.logging import get_logger
from jarvis.common.pg import lazy_pool, open_pool
from jarvis.core.approvals.pending import (
    AnswerResult,
    PendingApprovalStore,
    PendingItem,
    Status,
)
from jarvis.core.approvals.request import ApprovalRequest

_log = get_logger("jarvis.approvals")
CHANNEL = "jarvis_approvals"
_POLL_SEC = 1.0  # the safety net if a notification is lost
_HOST = socket.gethostname()
OWNER = f"{_HOST}:{os.getpid()}"

# idempotent: safe to run at every start.
SCHEMA = """
CREATE TABLE IF NOT EXISTS jarvis_pending_approvals (
    id          text PRIMARY KEY,
    session_id  text NOT NULL,
    user_id     text NOT NULL,
    status      text NOT NULL DEFAULT 'pending',
    answered_by text,
    request     jsonb NOT NULL,
    created_ms  bigint NOT NULL
);
ALTER TABLE jarvis_pending_approvals ADD COLUMN IF NOT EXISTS owner text;
CREATE INDEX IF NOT EXISTS jarvis_pending_session
    ON jarvis_pending_approvals (session_id) WHERE status = 'pending';
"""


class PostgresPendingStore(PendingApprovalStore):
    def __init__(self, pool: AsyncConnectionPool, dsn: str) -> None:
        self.pool = pool
        self._dsn = dsn
        self._wakers: dict[str, asyncio.Event] = {}
        self._listener: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self._subscribers: list[Callable[[dict[str, Any]], None]] = []

    @classmethod
    async def connect(cls, dsn: str) -> PostgresPendingStore:
        store = cls(lazy_pool(dsn), dsn)
        await store.open()
        return store

    async def open(self) -> None:
        await open_pool(self.pool, SCHEMA)
        self._listener = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._listening.wait(), 10)

    def subscribe(self, listener: Callable[[dict[str, Any]], None]) -> None:
        """Every notification (`created` / `resolved`, with id and session_id), from any
        process: how tabs on this process learn of requests made elsewhere."""
        self._subscribers.append(listener)

    async def aclose(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        await self.pool.close()

    async def _listen(self) -> None:
        async with await psycopg.AsyncConnection.connect(self._dsn, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self._listening.set()
            async for note in conn.notifies():
                event = json.loads(note.payload)
                waker = self._wakers.get(event.get("id", ""))
                if waker is not None:
                    waker.set()
                for listener in list(self._subscribers):
                    listener(event)

    async def _notify(
        self, conn: psycopg.AsyncConnection[Any], item_id: str, session_id: str, event: str
    ) -> None:
        payload = {"id": item_id, "session_id": session_id, "event": event}
        await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps(payload)))

    async def create(self, request: ApprovalRequest) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "INSERT INTO jarvis_pending_approvals (id, session_id, user_id, request, "
                "created_ms, owner) VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
                (
                    request.id,
                    request.session_id,
                    request.user_id,
                    Jsonb(request.model_dump(mode="json")),
                    request.created_ms,
                    OWNER,
                ),
            )
            await self._notify(conn, request.id, request.session_id, "created")

    async def answer(self, item_id: str, user_id: str, answer: str) -> AnswerResult:
        item = await self.get(item_id)
        if item is None:
            return "not_found"
        if item.request.user_id != user_id:
            return "forbidden"
        if answer not in item.request.options:
            return "invalid"
        return "ok" if await self._transition(item_id, answer, user_id) else "conflict"

    async def _transition(self, item_id: str, status: str, by: str | None) -> bool:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "UPDATE jarvis_pending_approvals SET status = %s, answered_by = %s "
                "WHERE id = %s AND status = 'pending' RETURNING session_id",
                (status, by, item_id),
            )
            row = await cursor.fetchone()
            if row is not None:
                await self._notify(conn, item_id, str(row[0]), "resolved")
        return row is not None

    async def wait(self, item_id: str, wait_sec: float, abort: asyncio.Event) -> Status:
        waker = self._wakers.setdefault(item_id, asyncio.Event())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait_sec
        try:
            while True:
                item = await self.get(item_id)
                if item is None or item.status != "pending":
                    return item.status if item else "cancelled"
                if abort.is_set():
                    await self._transition(item_id, "cancelled", None)
                elif loop.time() >= deadline:
                    await self._transition(item_id, "timeout", None)
                else:
                    await _first(waker, abort, min(_POLL_SEC, deadline - loop.time()))
                    waker.clear()
        finally:
            self._wakers.pop(item_id, None)

    async def cancel(self, item_id: str) -> bool:
        return await self._transition(item_id, "cancelled", None)

    async def get(self, item_id: str) -> PendingItem | None:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT request, status, answered_by FROM jarvis_pending_approvals WHERE id = %s",
                (item_id,),
            )
            row = await cursor.fetchone()
        if row is None:
            return None
        request, status, by = row
        return PendingItem(ApprovalRequest.model_validate(request), cast(Status, status), by)

    async def pending_for_session(self, session_id: str) -> list[ApprovalRequest]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT request FROM jarvis_pending_approvals WHERE session_id = %s "
                "AND status = 'pending' ORDER BY created_ms",
                (session_id,),
            )
            rows = await cursor.fetchall()
        return [ApprovalRequest.model_validate(row[0]) for row in rows]

    async def expire_dead_owners(self) -> int:
        """At start-up: rows still pending whose waiting process on this host is gone (killed
        mid-wait) are expired, so nothing stays pending forever. Live processes keep theirs."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT DISTINCT owner FROM jarvis_pending_approvals WHERE status = 'pending' "
                "AND owner LIKE %s",
                (f"{_HOST}:%",),
            )
            dead = [o for (o,) in await cursor.fetchall() if not _alive(str(o))]
            if not dead:
                return 0
            cursor = await conn.execute(
                "UPDATE jarvis_pending_approvals SET status = 'timeout' "
                "WHERE status = 'pending' AND owner = ANY(%s)",
                (dead,),
            )
            return cursor.rowcount


def _alive(owner: str) -> bool:
    try:
        os.kill(int(owner.rsplit(":", 1)[1]), 0)
    except (ProcessLookupError, ValueError, IndexError):
        return False
    except PermissionError:
        return True
    return True


async def _first(waker: asyncio.Event, abort: asyncio.Event, limit_sec: float) -> None:
    waiters = {asyncio.ensure_future(waker.wait()), asyncio.ensure_future(abort.wait())}
    try:
        await asyncio.wait(
            waiters, timeout=max(0.0, limit_sec), return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        for waiter in waiters:
            waiter.cancel()
