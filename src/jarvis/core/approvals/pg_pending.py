"""Pending approvals in PostgreSQL: answered from any process, exactly once.

The row is inserted before the request is shown; an answer is one `UPDATE … WHERE status =
'pending'`, so two answers in any two processes cannot both win; the waiting turn wakes through
`LISTEN/NOTIFY`, with a slow poll as a safety net.

Outages heal by themselves: the LISTEN connection is pinged while idle and re-opened with a
bounded backoff, then a catch-up query replays what changed meanwhile (`updated_ms`); a waiting
turn keeps waiting through database errors (an answer stored during the outage still counts);
`answer` raises on a database error, so the caller can refuse (503) instead of losing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import time
from collections.abc import Callable
from typing import Any, cast

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from jarvis.common.logging import get_logger
from jarvis.common.pg import CONNECT_TIMEOUT_SEC, lazy_pool, open_pool
from jarvis.core.approvals.pending import (
    KEEP_FINISHED_SEC,
    AnswerResult,
    PendingApprovalStore,
    PendingItem,
    Status,
    answerable_by,
)
from jarvis.core.approvals.request import ApprovalRequest

_log = get_logger("jarvis.approvals")
CHANNEL = "jarvis_approvals"
_POLL_SEC = 1.0  # the safety net if a notification is lost
_PING_SEC = 5.0  # an idle LISTEN connection is checked this often (a dead path is silent)
_RETRY_MIN_SEC, _RETRY_MAX_SEC = 0.1, 1.0  # LISTEN reconnect backoff
_CATCH_UP_MARGIN_MS = 5_000  # clocks of several hosts differ a little
_DB_ERRORS = (psycopg.Error, PoolTimeout)
_HOST = socket.gethostname()
OWNER = f"{_HOST}:{os.getpid()}"

# Safe to run at every start.
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
ALTER TABLE jarvis_pending_approvals ADD COLUMN IF NOT EXISTS updated_ms bigint;
CREATE INDEX IF NOT EXISTS jarvis_pending_updated ON jarvis_pending_approvals (updated_ms);
CREATE INDEX IF NOT EXISTS jarvis_pending_session
    ON jarvis_pending_approvals (session_id) WHERE status = 'pending';
"""


class PostgresPendingStore(PendingApprovalStore):
    def __init__(
        self, pool: AsyncConnectionPool, dsn: str, keep_finished_sec: float = KEEP_FINISHED_SEC
    ) -> None:
        self.pool = pool
        self._keep_finished_ms = int(keep_finished_sec * 1000)
        self._dsn = dsn
        self._wakers: dict[str, asyncio.Event] = {}
        self._listener: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self._subscribers: list[Callable[[dict[str, Any]], None]] = []
        self._retries: set[asyncio.Task[None]] = set()
        self._lost_ms: int | None = None  # when the LISTEN connection was lost

    @classmethod
    async def connect(
        cls, dsn: str, keep_finished_sec: float = KEEP_FINISHED_SEC
    ) -> PostgresPendingStore:
        store = cls(lazy_pool(dsn), dsn, keep_finished_sec)
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
        """Keep one LISTEN connection open for the store's life, re-opening it after a loss."""
        delay = _RETRY_MIN_SEC
        while True:
            try:
                await self._listen_once()
            except (*_DB_ERRORS, OSError) as exc:
                if self._listening.is_set():  # it had worked: a fresh loss, a fresh backoff
                    delay = _RETRY_MIN_SEC
                    self._listening.clear()
                if self._lost_ms is None:
                    self._lost_ms = _now_ms()
                    _log.warning("approval notifications lost (%s); reconnecting", _first_line(exc))
                await asyncio.sleep(delay)
                delay = min(delay * 2, _RETRY_MAX_SEC)

    async def _listen_once(self) -> None:
        async with await psycopg.AsyncConnection.connect(
            self._dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SEC
        ) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            if self._lost_ms is not None:
                await self._catch_up(conn, self._lost_ms - _CATCH_UP_MARGIN_MS)
                self._lost_ms = None
                _log.warning("approval notifications restored")
            self._listening.set()
            while True:
                async for note in conn.notifies(timeout=_PING_SEC):
                    self._dispatch(json.loads(note.payload))
                await conn.execute("SELECT 1")  # idle: make sure the path is still alive

    async def _catch_up(self, conn: psycopg.AsyncConnection[Any], since_ms: int) -> None:
        """Replay what changed while nobody listened, as the notifications would have."""
        cursor = await conn.execute(
            "SELECT id, session_id, status FROM jarvis_pending_approvals WHERE updated_ms >= %s "
            "ORDER BY updated_ms",
            (since_ms,),
        )
        for item_id, session_id, status in await cursor.fetchall():
            event = "created" if status == "pending" else "resolved"
            self._dispatch({"id": item_id, "session_id": session_id, "event": event})
        for waker in self._wakers.values():  # every waiting turn re-reads its row
            waker.set()

    def _dispatch(self, event: dict[str, Any]) -> None:
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
                "created_ms, owner, updated_ms) VALUES (%s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING",
                (
                    request.id,
                    request.session_id,
                    request.user_id,
                    Jsonb(request.model_dump(mode="json")),
                    request.created_ms,
                    OWNER,
                    _now_ms(),
                ),
            )
            await self._notify(conn, request.id, request.session_id, "created")
            await self._purge_finished(conn)

    async def _purge_finished(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Delete rows answered (or timed out, cancelled) longer ago than the retention, and
        rows a dead process left pending past their expiry by as long (seed 002)."""
        cutoff = _now_ms() - self._keep_finished_ms
        await conn.execute(
            "DELETE FROM jarvis_pending_approvals WHERE updated_ms < %s AND (status <> 'pending' "
            "OR (request->>'expires_ms')::bigint < %s)",
            (cutoff, cutoff),
        )

    async def answer(
        self, item_id: str, user_id: str, answer: str, session_id: str
    ) -> AnswerResult:
        item = await self.get(item_id)
        if item is None:
            return "not_found"
        if not answerable_by(item.request, user_id, session_id):
            return "forbidden"
        if answer not in item.request.options:
            return "invalid"
        return "ok" if await self._transition(item_id, answer, user_id) else "conflict"

    async def _transition(self, item_id: str, status: str, by: str | None) -> bool:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "UPDATE jarvis_pending_approvals SET status = %s, answered_by = %s, "
                "updated_ms = %s WHERE id = %s AND status = 'pending' RETURNING session_id",
                (status, by, _now_ms(), item_id),
            )
            row = await cursor.fetchone()
            if row is not None:
                await self._notify(conn, item_id, str(row[0]), "resolved")
        return row is not None

    async def wait(self, item_id: str, wait_sec: float, abort: asyncio.Event) -> Status:
        waker = self._wakers.setdefault(item_id, asyncio.Event())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait_sec
        give_up = deadline + wait_sec  # a database that stays down past this: a timeout
        try:
            while True:
                try:
                    status = await self._step(item_id, abort, loop.time() >= deadline)
                except _DB_ERRORS as exc:
                    # Keep waiting: an answer stored while we could not read still counts.
                    _log.warning("approval %s: database error while waiting: %s", item_id, exc)
                    if abort.is_set():
                        self._cancel_later(item_id)
                        return "cancelled"
                    if loop.time() >= give_up:
                        return "timeout"
                    status = None
                if status is not None:
                    return status
                await _first(waker, abort, min(_POLL_SEC, max(0.0, deadline - loop.time())))
                waker.clear()
        finally:
            self._wakers.pop(item_id, None)

    async def _step(self, item_id: str, abort: asyncio.Event, late: bool) -> Status | None:
        """One look at the row: its final status, or None while it is still pending."""
        item = await self.get(item_id)
        if item is None or item.status != "pending":
            return item.status if item else "cancelled"
        if abort.is_set():
            await self._transition(item_id, "cancelled", None)
        elif late:
            await self._transition(item_id, "timeout", None)
        else:
            return None
        return await self._step(item_id, asyncio.Event(), False)  # who won the transition

    def _cancel_later(self, item_id: str) -> None:
        """Mark an aborted request cancelled once the database is back, so a late answer gets
        a conflict rather than a 200 nobody acts on."""

        async def retry() -> None:
            for attempt in range(60):
                try:
                    await self._transition(item_id, "cancelled", None)
                    return
                except _DB_ERRORS:
                    await asyncio.sleep(min(1.0, 0.1 * 2**attempt))

        task = asyncio.ensure_future(retry())
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

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


def _now_ms() -> int:
    return int(time.time() * 1000)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


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
