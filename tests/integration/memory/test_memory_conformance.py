"""Conformance for the operations memory tools and procedure learning rely on: listing,
forgetting, episode marks, the per-agent episode cap, Korean recall, and a real restart."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import psycopg
import pytest

from jarvis.common.pg import lazy_pool
from jarvis.memory import MemoryItem, MemoryScope, MemoryService, MemorySettings, make_episode
from jarvis.memory.episodes import Episode
from jarvis.memory.pg_store import PostgresItemStore
from jarvis.memory.recall import EpisodeFilter
from jarvis.memory.sqlite_store import FLUSH_BATCH, SqliteItemStore


def item(n: int, text: str, kind: Any = "semantic", agent: str = "main") -> MemoryItem:
    return MemoryItem(id=f"i{n}", kind=kind, agent_id=agent, user_id="u", text=text, ts_ms=n)


def episode(turn: int, tool: str = "list_dir", outcome: str = "success", **kw: Any) -> Episode:
    return make_episode(
        agent_id=kw.get("agent", "main"), user_id="u", session_id=kw.get("session", "s1"),
        turn=turn, ts_ms=turn * 1000, utterance=kw.get("utterance", f"목록 보여줘 {turn}"),
        answer="done", successful_calls=[(tool, {"path": "."})] if tool else [],
        outcome=outcome, overflow=False,
    )  # fmt: skip


async def test_latest_delete_and_scoping(services: Any) -> None:
    a, b = services
    for n, kind in enumerate(["fact", "semantic", "fact"], start=1):
        await a.store.add(item(n, f"item number {n}", kind=kind))
    await a.store.add(item(9, "karen's fact", kind="fact", agent="karen"))
    assert [i.id for i in await b.items("main", "u")] == ["i3", "i2", "i1"]
    assert [i.id for i in await b.items("main", "u", ("fact",), limit=1)] == ["i3"]
    assert [i.id for i in await b.resolve("main", "u", "i")] == ["i3", "i2", "i1"]
    assert not await b.forget("karen", "u", "i1")  # another agent's id is not theirs to forget
    assert await b.forget("main", "u", "i1")
    assert not await a.forget("main", "u", "i1")
    assert await a.store.search("main", "u", "number", {"fact", "semantic"}, 5) != []
    assert [i.id for i in await a.store.search("main", "u", "number 1", {"fact"}, 5)] == ["i3"]


async def test_korean_recall_matches_words_with_particles(services: Any) -> None:
    a, b = services
    await a.store.add(item(1, "배포는 금요일 오후에 한다"))
    await a.store.add(item(2, "점심은 김치찌개"))
    found = await b.store.search("main", "u", "배포 언제", {"semantic"}, 5)
    assert [i.id for i in found] in (["i1"],)
    assert found[0].relevance >= 1


async def test_episode_marks_survive_and_filters_apply(services: Any) -> None:
    a, b = services
    await a.record_episode(episode(1))
    await a.record_episode(episode(2, tool="bash", outcome="failure"))
    await a.record_episode(episode(3, tool=""))
    await a.store.flush()  # episodes reach other connections in batches
    assert await b.mark_turn_failed("main", "u", "s1", 1, "아니, 틀렸어")
    assert not await b.mark_turn_failed("main", "u", "s1", 99, "no such turn")
    first = (await a.episodes("main", "u"))[0]
    assert (first.outcome, first.metadata["corrected"]) == ("failure", "아니, 틀렸어")
    failures = await b.recall_episodes("main", "u", EpisodeFilter(outcome="failure"))
    assert [e.turn for e in failures] == [2, 1]
    assert [e.turn for e in await b.recall_episodes("main", "u", EpisodeFilter(kind="chat"))] == [3]
    assert await b.recall_episodes("main", "u", EpisodeFilter(since_ms=2500, kind="bash")) == []
    found = await b.recall_episodes("main", "u", EpisodeFilter(text="목록 보여줘 2"))
    assert [e.turn for e in found] == [2]


async def test_episodes_are_capped_per_agent(services: Any) -> None:
    a, b = services
    a.store.episode_limit = b.store.episode_limit = 3
    for turn in range(1, 6):
        await a.record_episode(episode(turn))
    await a.record_episode(episode(1, agent="karen"))
    await a.store.flush()
    assert [e.turn for e in await b.episodes("main", "u")] == [3, 4, 5]
    assert [e.turn for e in await b.episodes("karen", "u")] == [1]


async def test_long_utterances_keep_head_and_tail(services: Any) -> None:
    a, b = services
    long = "요청 " + "가" * 3000 + " 마지막 줄: 표로 답하라"
    await a.record_episode(episode(1, utterance=long))
    await a.store.flush()
    kept = (await b.episodes("main", "u"))[0].utterance
    assert kept.startswith("요청 ") and kept.endswith("마지막 줄: 표로 답하라")
    assert len(kept) <= 1000


async def test_sqlite_finds_words_inside_korean_compounds(tmp_path: Path) -> None:
    store = SqliteItemStore(tmp_path / "memory.db")
    await store.add(item(1, "출장계획서는 금요일까지 제출"))
    await store.add(item(2, "점심 메뉴"))
    # No indexed word starts with these: the trigram index finds them inside the compound.
    assert [i.id for i in await store.search("main", "u", "계획서 어디", {"semantic"}, 5)] == ["i1"]
    assert [i.id for i in await store.search("main", "u", "계획", {"semantic"}, 5)] == ["i1"]
    await store.aclose()


async def test_sqlite_memory_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    store = SqliteItemStore(path)
    await store.open()
    before = MemoryService(MemorySettings(), store)
    await before.record_episode(episode(1, utterance="my dog is called Bori"))
    await before.remember(MemoryScope("main", "u", "s1", 1), "fact", "user lives in Seoul", 1)
    await store.aclose()
    reopened = SqliteItemStore(path)
    await reopened.open()
    after = MemoryService(MemorySettings(), reopened)
    assert [e.utterance for e in await after.episodes("main", "u")] == ["my dog is called Bori"]
    block = await after.observe(MemoryScope("main", "u", "s2", 1), "what is my dog called")
    assert "[핵심 사실]\n- user lives in Seoul" in block and "Bori" in block
    await reopened.aclose()


async def test_postgres_memory_survives_a_new_pool(dsn: str) -> None:
    store = PostgresItemStore(lazy_pool(dsn))
    await store.open()
    await MemoryService(MemorySettings(), store).record_episode(episode(1))
    await store.aclose()
    again = PostgresItemStore(lazy_pool(dsn))
    await again.open()
    assert [e.turn for e in await MemoryService(MemorySettings(), again).episodes("main", "u")] == [
        1
    ]
    await again.aclose()


async def test_postgres_says_once_when_pgvector_is_missing(
    dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        row = await (
            await conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")
        ).fetchone()
    store = PostgresItemStore(lazy_pool(dsn))
    with caplog.at_level(logging.WARNING, logger="jarvis.memory"):
        await store.open()
    await store.aclose()
    notices = [r for r in caplog.records if "pgvector" in r.getMessage()]
    assert len(notices) == (0 if row else 1)


async def test_a_fact_written_by_one_process_shows_in_the_others_next_turn(services: Any) -> None:
    a, b = services
    scope = MemoryScope("main", "u", "s1", 1)
    assert "서울" not in await b.observe(scope, "hi")  # b has read (and may keep) the sections
    await a.remember(scope, "fact", "user lives in 서울", 1)
    assert "[핵심 사실]\n- user lives in 서울" in await b.observe(scope, "hi")
    item_id = (await b.items("main", "u", ("fact",)))[0].id
    assert await a.forget("main", "u", item_id)
    assert "서울" not in await b.observe(scope, "hi")


async def test_sqlite_episodes_are_written_in_batches(tmp_path: Path) -> None:
    """Recorded episodes are recalled in this process at once, reach the file in one
    transaction per batch (at `FLUSH_BATCH`, on `flush`, on `aclose`), and no sooner."""
    path = tmp_path / "memory.db"
    writer, reader = SqliteItemStore(path), SqliteItemStore(path)
    service = MemoryService(MemorySettings(), writer)
    await service.record_episode(episode(1, utterance="my dog is called Bori"))
    block = await service.observe(MemoryScope("main", "u", "s2", 1), "what is my dog called")
    assert "Bori" in block  # recalled here before it is written
    assert await reader.of_kind("main", "u", "episode") == []  # another connection: not yet
    await writer.flush()
    assert [i.turn for i in await reader.of_kind("main", "u", "episode")] == [1]
    for turn in range(2, FLUSH_BATCH + 2):  # FLUSH_BATCH more: the last one writes the batch
        await service.record_episode(episode(turn))
    assert len(await reader.of_kind("main", "u", "episode")) == FLUSH_BATCH + 1
    await service.record_episode(episode(FLUSH_BATCH + 2))
    await writer.aclose()  # a clean stop writes what is pending
    assert len(await reader.of_kind("main", "u", "episode")) == FLUSH_BATCH + 2
    await reader.aclose()
