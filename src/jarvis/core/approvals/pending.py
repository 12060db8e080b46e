"""Pending approvals: the place for the answer exists before the request is shown.

An answer is one conditional transition "only while pending": exactly one answer wins, a late
one is a conflict, another user's answer is refused. The waiting turn wakes on a future here
(in-process); the PostgreSQL store wakes through LISTEN/NOTIFY.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Literal

from jarvis.common.loop_priority import wake_first
from jarvis.core.approvals.request import AnswerOption, ApprovalRequest

Status = Literal["pending", "allow", "always", "deny", "timeout", "cancelled"]
AnswerResult = Literal["ok", "not_found", "forbidden", "conflict", "invalid"]


@dataclass
class PendingItem:
    request: ApprovalRequest
    status: Status = "pending"
    answered_by: str | None = None
    finished_at: float = 0.0


def answerable_by(request: ApprovalRequest, user_id: str, session_id: str) -> bool:
    """Seed 002: the answer's person owns the item and it comes from the item's conversation
    (a window of another conversation, or a program naming another, is refused)."""
    return request.user_id == user_id and request.session_id == session_id


# Finished items are kept this long so a late answer still gets a clear 409, then deleted
# (seed 002: "처리가 끝난 대기 항목은 지웁니다"); `storage.pending_retention_sec`.
KEEP_FINISHED_SEC = 600.0


class PendingApprovalStore:
    """Base class; the in-memory store below is the embedded default."""

    async def open(self) -> None:
        """Connect (stores with a server); the default has nothing to open."""

    async def aclose(self) -> None:
        """Release resources; the default has none."""

    async def create(self, request: ApprovalRequest) -> None:
        raise NotImplementedError

    async def answer(
        self, item_id: str, user_id: str, answer: str, session_id: str
    ) -> AnswerResult:
        raise NotImplementedError

    async def wait(self, item_id: str, wait_sec: float, abort: asyncio.Event) -> Status:
        """Block until answered, timed out (→ `timeout`) or aborted (→ `cancelled`)."""
        raise NotImplementedError

    async def cancel(self, item_id: str) -> bool:
        raise NotImplementedError

    async def get(self, item_id: str) -> PendingItem | None:
        raise NotImplementedError

    async def pending_for_session(self, session_id: str) -> list[ApprovalRequest]:
        raise NotImplementedError


class MemoryPendingStore(PendingApprovalStore):
    def __init__(self, keep_finished_sec: float = KEEP_FINISHED_SEC) -> None:
        self._keep_finished_sec = keep_finished_sec
        self._items: dict[str, PendingItem] = {}
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}  # turns waiting, by item

    async def create(self, request: ApprovalRequest) -> None:
        self._purge_finished()
        self._items[request.id] = PendingItem(request=request)

    def _purge_finished(self) -> None:
        cutoff = time.monotonic() - self._keep_finished_sec
        stale = [i for i, it in self._items.items() if 0 < it.finished_at < cutoff]
        for item_id in stale:
            del self._items[item_id]

    def _transition(self, item_id: str, status: Status, by: str | None) -> bool:
        # No await between the check and the write: the event loop makes this one atomic step.
        item = self._items.get(item_id)
        if item is None or item.status != "pending":
            return False
        item.status = status
        item.answered_by = by
        item.finished_at = time.monotonic()
        for waiter in self._waiters.pop(item_id, ()):
            wake_first(waiter)  # a person waits: the turn goes on before other queued work
        return True

    async def answer(
        self, item_id: str, user_id: str, answer: str, session_id: str
    ) -> AnswerResult:
        item = self._items.get(item_id)
        if item is None:
            return "not_found"
        if not answerable_by(item.request, user_id, session_id):
            return "forbidden"
        if answer not in item.request.options:
            return "invalid"
        status: AnswerOption = answer
        return "ok" if self._transition(item_id, status, user_id) else "conflict"

    async def wait(self, item_id: str, wait_sec: float, abort: asyncio.Event) -> Status:
        """The answer wakes the waiting turn itself, ahead of the loop's queue (`wake_first`):
        it runs on right after the answer's handler, in the same step (through helper tasks it
        took three steps; on a busy server each step is every session's work)."""
        item = self._items[item_id]
        if item.status == "pending" and not abort.is_set():
            loop = asyncio.get_running_loop()
            woke: asyncio.Future[None] = loop.create_future()
            self._waiters.setdefault(item_id, []).append(woke)
            stop = asyncio.ensure_future(abort.wait())
            stop.add_done_callback(lambda _: _wake(woke))
            timer = loop.call_later(wait_sec, _wake, woke)
            try:
                await woke
            finally:
                timer.cancel()
                stop.cancel()
                if woke in (waiting := self._waiters.get(item_id, [])):
                    waiting.remove(woke)
        if item.status == "pending":
            self._transition(item_id, "cancelled" if abort.is_set() else "timeout", None)
        return item.status

    async def cancel(self, item_id: str) -> bool:
        return self._transition(item_id, "cancelled", None)

    async def get(self, item_id: str) -> PendingItem | None:
        return self._items.get(item_id)

    async def pending_for_session(self, session_id: str) -> list[ApprovalRequest]:
        return [
            item.request
            for item in self._items.values()
            if item.status == "pending" and item.request.session_id == session_id
        ]


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
