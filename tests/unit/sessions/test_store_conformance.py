"""One conformance suite for every session store (memory, JSONL; PostgreSQL joins later)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from jarvis.agent_layer.sessions import (
    JsonlSessionStore,
    MemorySessionStore,
    SessionEntry,
    SessionInfo,
    SessionNotFound,
    SessionStore,
)
from jarvis.agent_layer.sessions.pg_store import PostgresSessionStore
from jarvis.model_layer import AssistantMessage, UserMessage
from tests.support.postgres import postgres_dsn


@pytest.fixture(params=["memory", "jsonl", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SessionStore]:
    if request.param == "postgres":
        async for dsn in postgres_dsn():
            made: SessionStore = await PostgresSessionStore.connect(dsn)
            yield made
            await made.aclose()
        return
    made = MemorySessionStore() if request.param == "memory" else JsonlSessionStore(tmp_path / "s")
    yield made
    await made.aclose()


def turn(n: int, ts: int, text: str = "") -> list[SessionEntry]:
    return [
        SessionEntry(turn=n, ts_ms=ts, message=UserMessage(content=text or f"question {n}")),
        SessionEntry(turn=n, ts_ms=ts, message=AssistantMessage(content=f"answer {n}")),
    ]


async def test_create_get_and_title(store: SessionStore) -> None:
    await store.create(SessionInfo(id="a1", agent_id="main", user_id="u", created_ms=5))
    info = await store.get_info("a1")
    assert info is not None and info.turns == 0 and info.title == ""
    await store.append("a1", turn(1, 10, "the first question is the title"))
    info = await store.get_info("a1")
    assert info is not None
    assert (info.turns, info.updated_ms, info.title) == (1, 10, "the first question is the title")


async def test_create_twice_keeps_the_first(store: SessionStore) -> None:
    await store.create(SessionInfo(id="a1", agent_id="main", created_ms=1))
    await store.append("a1", turn(1, 2))
    await store.create(SessionInfo(id="a1", agent_id="other", created_ms=9))
    info = await store.get_info("a1")
    assert info is not None and info.agent_id == "main" and info.turns == 1


async def test_list_newest_first_with_filters(store: SessionStore) -> None:
    for sid, agent, user, ts in [
        ("s1", "main", "u", 10),
        ("s2", "karen", "u", 30),
        ("s3", "main", "v", 20),
    ]:
        await store.create(SessionInfo(id=sid, agent_id=agent, user_id=user, created_ms=ts))
        await store.append(sid, turn(1, ts))
    assert [i.id for i in await store.list_sessions()] == ["s2", "s3", "s1"]
    assert [i.id for i in await store.list_sessions(agent_id="main")] == ["s3", "s1"]
    assert [i.id for i in await store.list_sessions(user_id="u")] == ["s2", "s1"]
    assert [i.id for i in await store.list_sessions(agent_id="main", user_id="v")] == ["s3"]


@pytest.mark.parametrize(
    ("n", "expected"), [(0, []), (1, [5]), (3, [3, 4, 5]), (9, [1, 2, 3, 4, 5])]
)
async def test_recent_returns_whole_last_turns(
    store: SessionStore, n: int, expected: list[int]
) -> None:
    await store.create(SessionInfo(id="r1"))
    for i in range(1, 6):
        await store.append("r1", turn(i, i))
    entries = await store.recent("r1", n)
    assert sorted({e.turn for e in entries}) == expected
    assert len(entries) == 2 * len(expected)
    assert [e.turn for e in entries] == sorted(e.turn for e in entries)


async def test_history_keeps_order_and_message_types(store: SessionStore) -> None:
    await store.create(SessionInfo(id="h1"))
    for i in range(1, 4):
        await store.append("h1", turn(i, i))
    history = await store.history("h1")
    assert [(e.turn, e.message.role) for e in history] == [
        (1, "user"),
        (1, "assistant"),
        (2, "user"),
        (2, "assistant"),
        (3, "user"),
        (3, "assistant"),
    ]
    assert isinstance(history[1].message, AssistantMessage)


async def test_title_is_the_first_user_message_cut_to_60(store: SessionStore) -> None:
    await store.create(SessionInfo(id="t1"))
    first = [SessionEntry(turn=1, ts_ms=1, message=AssistantMessage(content="hello"))]
    await store.append("t1", first + turn(1, 1, "x" * 80))
    await store.append("t1", turn(2, 2, "a later question"))
    info = await store.get_info("t1")
    assert info is not None and (info.title, info.turns) == ("x" * 60, 2)


async def test_empty_session_and_empty_store(store: SessionStore) -> None:
    assert await store.list_sessions() == []
    await store.create(SessionInfo(id="e1"))
    await store.append("e1", [])
    assert await store.recent("e1", 3) == []
    assert await store.history("e1") == []


async def test_get_info_returns_a_copy(store: SessionStore) -> None:
    await store.create(SessionInfo(id="c1"))
    info = await store.get_info("c1")
    assert info is not None
    info.title = "changed by the caller"
    again = await store.get_info("c1")
    assert again is not None and again.title == ""


async def test_unknown_session(store: SessionStore) -> None:
    assert await store.get_info("nope") is None
    with pytest.raises(SessionNotFound):
        await store.append("nope", turn(1, 1))
    with pytest.raises(SessionNotFound):
        await store.recent("nope", 3)
    with pytest.raises(SessionNotFound):
        await store.history("nope")


async def test_history_limit_returns_the_newest_entries_oldest_first(
    store: SessionStore,
) -> None:
    await store.create(SessionInfo(id="h1", created_ms=1))
    for n in range(1, 6):
        await store.append("h1", turn(n, n))
    last_three = await store.history("h1", limit=3)
    assert [e.message.content for e in last_three] == ["answer 4", "question 5", "answer 5"]
    assert await store.history("h1", limit=0) == []
    assert len(await store.history("h1", limit=100)) == len(await store.history("h1")) == 10
