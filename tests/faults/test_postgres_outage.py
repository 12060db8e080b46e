"""PostgreSQL drops out (a TCP proxy between Jarvis and the server is cut, then restored):
calls fail fast with "database unavailable", nothing confirmed is lost, and everything heals
without a restart — pools, the LISTEN connection (with a catch-up), waiting approvals."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from jarvis.agent_layer.sessions import SessionEntry, SessionInfo
from jarvis.agent_layer.sessions.pg_store import PostgresSessionStore
from jarvis.common.storage_errors import describe_storage_error
from jarvis.core.approvals.pg_pending import PostgresPendingStore
from jarvis.core.approvals.request import ApprovalRequest
from jarvis.model_layer.messages import UserMessage
from tests.support.tcp_proxy import TcpProxy, through


async def until(check: Callable[[], Awaitable[Any]], what: str, limit: float = 60) -> Any:
    """Retry `check` until it stops raising (a hang guard, not a timing assertion)."""
    async with asyncio.timeout(limit):
        while True:
            try:
                return await check()
            except Exception:
                await asyncio.sleep(0.05)


def request(item_id: str, session: str = "s1") -> ApprovalRequest:
    return ApprovalRequest(
        id=item_id,
        session_id=session,
        agent_id="main",
        user_id="local",
        turn=1,
        tool_call_id="c",
        tool="bash",
        source="builtin",
        args=[],
        options=["allow", "deny"],
        created_ms=1,
        expires_ms=2,
    )


def entry(text: str) -> list[SessionEntry]:
    return [SessionEntry(turn=1, ts_ms=1, message=UserMessage(content=text))]


async def test_session_writes_fail_fast_during_a_cut_and_work_again_after(
    dsn: str, proxy: TcpProxy
) -> None:
    store = await PostgresSessionStore.connect(through(proxy, dsn))
    try:
        await store.create(SessionInfo(id="s1"))
        await store.append("s1", entry("before"))
        proxy.cut()
        for _ in range(2):  # the broken connection, then no connection at all
            with pytest.raises(Exception) as failed:
                await store.append("s1", entry("lost"))
            assert describe_storage_error(failed.value).startswith("database unavailable")
        proxy.restore()
        await until(lambda: store.append("s1", entry("after")), "a write after the cut")
        texts = [e.message.content for e in await store.history("s1")]
        assert texts == ["before", "after"]  # nothing reported as failed was stored, or lost
    finally:
        await store.aclose()


async def test_a_waiting_approval_survives_a_cut_and_takes_the_answer_given_meanwhile(
    dsn: str, proxy: TcpProxy
) -> None:
    waiting = await PostgresPendingStore.connect(through(proxy, dsn))
    other = await PostgresPendingStore.connect(dsn)  # a process with its own path to the server
    seen: list[dict[str, Any]] = []
    waiting.subscribe(seen.append)
    try:
        await waiting.create(request("a1"))
        waiter = asyncio.create_task(waiting.wait("a1", 600, asyncio.Event()))
        proxy.cut()
        await other.create(request("b1", session="s2"))  # made elsewhere during the cut
        assert await other.answer("a1", "local", "allow", "s1") == "ok"  # stored: must not be lost
        proxy.restore()
        assert await asyncio.wait_for(waiter, 60) == "allow"
        # The LISTEN connection came back and replayed what it missed.
        await until(lambda: _assert_seen(seen, "b1", "created"), "catch-up of b1")
        await other.create(request("c1", session="s3"))
        await until(lambda: _assert_seen(seen, "c1", "created"), "live notifications again")
    finally:
        await waiting.aclose()
        await other.aclose()


async def test_an_answer_during_a_cut_is_refused_not_lost(dsn: str, proxy: TcpProxy) -> None:
    store = await PostgresPendingStore.connect(through(proxy, dsn))
    try:
        await store.create(request("a1"))
        proxy.cut()
        with pytest.raises(Exception) as failed:
            await store.answer("a1", "local", "allow", "s1")
        assert describe_storage_error(failed.value).startswith("database unavailable")
        proxy.restore()
        item = await until(lambda: store.get("a1"), "reading after the cut")
        assert item is not None and item.status == "pending"  # refused means not stored
    finally:
        await store.aclose()


async def _assert_seen(seen: list[dict[str, Any]], item_id: str, event: str) -> None:
    assert any(e.get("id") == item_id and e.get("event") == event for e in seen)
