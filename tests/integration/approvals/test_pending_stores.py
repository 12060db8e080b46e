"""One suite for the pending-approval stores (memory, PostgreSQL): exactly one answer wins."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest

from jarvis.core.approvals.pending import MemoryPendingStore
from jarvis.core.approvals.pg_pending import PostgresPendingStore
from jarvis.core.approvals.request import ApprovalRequest
from tests.support.postgres import postgres_dsn


def request(item_id: str, user: str = "local") -> ApprovalRequest:
    return ApprovalRequest(
        id=item_id,
        session_id="s",
        agent_id="main",
        user_id=user,
        turn=1,
        tool_call_id="c",
        tool="bash",
        source="builtin",
        args=[],
        options=["allow", "always", "deny"],
        created_ms=0,
        expires_ms=1,
    )


@pytest.fixture(params=["memory", "postgres"])
async def stores(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    """Two handles on one store: for PostgreSQL, two pools as two processes would have."""
    if request.param == "memory":
        memory = MemoryPendingStore()
        yield memory, memory
        return
    async for dsn in postgres_dsn():
        first = await PostgresPendingStore.connect(dsn)
        second = await PostgresPendingStore.connect(dsn)
        yield first, second
        await first.aclose()
        await second.aclose()


async def test_answers_and_their_errors(stores: Any) -> None:
    a, b = stores
    await a.create(request("r1", user="alice"))
    assert await b.answer("nope", "alice", "allow", "s") == "not_found"
    assert await b.answer("r1", "bob", "allow", "s") == "forbidden"
    # Seed 002: the conversation must be right too, not only the person.
    assert await b.answer("r1", "alice", "allow", "another-session") == "forbidden"
    assert await b.answer("r1", "alice", "maybe", "s") == "invalid"
    assert [r.id for r in await b.pending_for_session("s")] == ["r1"]
    waiter = asyncio.create_task(a.wait("r1", 10, asyncio.Event()))
    await asyncio.sleep(0.05)
    assert await b.answer("r1", "alice", "deny", "s") == "ok"
    assert await asyncio.wait_for(waiter, 5) == "deny"
    assert await b.answer("r1", "alice", "allow", "s") == "conflict"
    assert await b.pending_for_session("s") == []


async def test_the_answer_in_one_handle_wakes_the_waiter_in_the_other_fast(stores: Any) -> None:
    a, b = stores
    loop = asyncio.get_running_loop()
    for n in range(20):
        await a.create(request(f"w{n}"))
        waiter = asyncio.create_task(a.wait(f"w{n}", 10, asyncio.Event()))
        await asyncio.sleep(0.01)
        start = loop.time()
        await b.answer(f"w{n}", "local", "allow", "s")
        assert await asyncio.wait_for(waiter, 5) == "allow"
        assert loop.time() - start < 0.5  # woken by the notification, not the 1 s poll


async def test_an_answer_wakes_the_waiting_turn_ahead_of_other_queued_work() -> None:
    """In one process the answer wakes the waiter itself, ahead of the loop's queue: the turn
    runs on right after the answer's handler. On a busy server every step is every session's
    work, so each hop (helper tasks around the wait took three) adds a whole step to answer →
    tool start."""
    loop = asyncio.get_running_loop()
    store = MemoryPendingStore()
    await store.create(request("n1"))
    waiter = asyncio.create_task(store.wait("n1", 10, asyncio.Event()))
    await asyncio.sleep(0)  # the waiter starts waiting
    turn_went_on: list[bool] = []  # seen by other sessions' work, queued before the answer
    loop.call_soon(lambda: turn_went_on.append(waiter.done()))
    assert await store.answer("n1", "local", "allow", "s") == "ok"
    await asyncio.sleep(0)  # the answer's handler yields once
    assert waiter.done() and waiter.result() == "allow"
    assert turn_went_on == [True]


async def test_timeout_and_abort(stores: Any) -> None:
    a, b = stores
    await a.create(request("t1"))
    assert await a.wait("t1", 0.2, asyncio.Event()) == "timeout"
    assert await b.answer("t1", "local", "allow", "s") == "conflict"
    await a.create(request("t2"))
    abort = asyncio.Event()
    asyncio.get_running_loop().call_later(0.1, abort.set)
    assert await a.wait("t2", 10, abort) == "cancelled"


async def test_500_rounds_of_two_concurrent_answers(stores: Any) -> None:
    a, b = stores
    for n in range(500):
        await a.create(request(f"c{n}"))
        results = await asyncio.gather(
            a.answer(f"c{n}", "local", "allow", "s"), b.answer(f"c{n}", "local", "deny", "s")
        )
        assert sorted(results) == ["conflict", "ok"], n


async def test_schema_creation_twice_changes_nothing() -> None:
    async for dsn in postgres_dsn():
        first = await PostgresPendingStore.connect(dsn)
        await first.create(request("keep"))
        second = await PostgresPendingStore.connect(dsn)  # runs the schema again
        assert [r.id for r in await second.pending_for_session("s")] == ["keep"]
        assert await second.expire_dead_owners() == 0  # its owner (this process) is alive
        async with first.pool.connection() as conn:  # as if a killed process had left it
            await conn.execute(
                "UPDATE jarvis_pending_approvals SET owner = %s WHERE id = 'keep'",
                (f"{socket.gethostname()}:999999",),
            )
        assert await second.expire_dead_owners() == 1
        assert (await first.get("keep")).status == "timeout"  # type: ignore[union-attr]
        await first.aclose()
        await second.aclose()


async def test_finished_rows_are_deleted_after_the_retention() -> None:
    """Seed 002: finished pending items are deleted. Kept `pending_retention_sec` (a late
    answer still gets 409), then removed when the next request is created; a pending row a
    dead process left past its expiry goes too, a live pending one never."""
    async for dsn in postgres_dsn():
        store = await PostgresPendingStore.connect(dsn, keep_finished_sec=60)
        try:
            for item_id in ("done-old", "done-new", "waiting", "orphan"):
                await store.create(request(item_id))
            await store.answer("done-old", "local", "allow", "s")
            await store.answer("done-new", "local", "deny", "s")
            async with store.pool.connection() as conn:  # as if it all happened 2 minutes ago
                old = "(extract(epoch from now()) * 1000)::bigint - 120000"
                await conn.execute(
                    f"UPDATE jarvis_pending_approvals SET updated_ms = {old} "
                    "WHERE id IN ('done-old', 'waiting', 'orphan')"
                )
                await conn.execute(
                    "UPDATE jarvis_pending_approvals SET request = jsonb_set(request, "
                    "'{expires_ms}', to_jsonb(%s::bigint)) WHERE id = 'waiting'",
                    (2**62,),
                )
            await store.create(request("next"))
            async with store.pool.connection() as conn:
                cursor = await conn.execute(
                    "SELECT id FROM jarvis_pending_approvals WHERE id IN "
                    "('done-old', 'done-new', 'waiting', 'orphan', 'next') ORDER BY id"
                )
                left = [row[0] for row in await cursor.fetchall()]
            assert left == ["done-new", "next", "waiting"]
            assert await store.answer("done-new", "local", "allow", "s") == "conflict"
        finally:
            await store.aclose()
