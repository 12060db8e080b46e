"""One suite for long-term and working memory stores: in the process, in one SQLite file opened
twice, and in PostgreSQL shared by two pools (as two server processes would have them)."""

from __future__ import annotations

from typing import Any

from jarvis.memory import (
    MemoryItem,
    MemoryScope,
    MemorySettings,
    WorkingMemory,
    make_episode,
)


def item(n: int, text: str, kind: Any = "semantic", agent: str = "main") -> MemoryItem:
    return MemoryItem(id=f"i{n}", kind=kind, agent_id=agent, user_id="u", text=text, ts_ms=n)


async def test_search_ranks_by_shared_words_then_newest(services: Any) -> None:
    a, b = services
    await a.store.add(item(1, "deploy happens on friday"))
    await a.store.add(item(2, "the deploy script lives in ops"))
    await a.store.add(item(3, "friday deploy needs a review"))
    await a.store.add(item(4, "lunch on friday", kind="fact"))
    await a.store.add(item(5, "friday deploy for karen", agent="karen"))
    found = await b.store.search("main", "u", "Friday DEPLOY?", {"semantic"}, 10)
    assert [i.id for i in found] == ["i3", "i1", "i2"]
    assert [i.id for i in await b.store.search("main", "u", "deploy", {"semantic"}, 1)] == ["i3"]
    assert await b.store.search("main", "u", "nothing shared", {"semantic"}, 5) == []
    assert await b.store.search("main", "u", "", {"semantic"}, 5) == []
    assert [i.text for i in await b.store.of_kind("main", "u", "fact")] == ["lunch on friday"]


async def test_an_episode_recorded_in_one_process_is_recalled_in_the_other(
    services: Any,
) -> None:
    a, b = services
    episode = make_episode(
        agent_id="main", user_id="u", session_id="s1", turn=1, ts_ms=5,
        utterance="my dog is called Bori", answer="noted",
        successful_calls=[("bash", {"command": "echo " + "x" * 300})],
        outcome="success", overflow=False,
    )  # fmt: skip
    await a.record_episode(episode)
    await a.store.flush()  # episodes reach other connections in batches
    assert await b.episodes("main", "u") == [episode]
    block = await b.observe(MemoryScope("main", "u", "s2", 1), "what is my dog called")
    assert "[장기 기억]\n- my dog is called Bori → noted" in block


async def test_working_memory_notes_and_rehearsals_are_per_session(services: Any) -> None:
    a, b = services
    scope = MemoryScope("main", "u", "s1", 1)
    await a.note(scope, "release branch is r-42")
    await a.note(scope, "release branch is r-42")  # restated: kept once
    assert "[작업 공유 메모리]\n- release branch is r-42" in await b.observe(scope, "hi")
    assert "r-42" not in await b.observe(MemoryScope("main", "u", "s2", 1), "hi")
    await a.store.add(item(1, "release checklist"))
    await b.observe(scope, "release")
    await a.observe(scope, "release")
    assert await a.working.load("main", "s1") == WorkingMemory(
        notes=["release branch is r-42"], rehearsals={"i1": 2}
    )
    assert await b.working.load("main", "s2") == WorkingMemory()


async def test_a_rehearsed_item_wins_a_tie_over_a_newer_one(services: Any) -> None:
    a, _ = services
    a.settings = MemorySettings(recall_limit=1)
    scope = MemoryScope("main", "u", "s1", 1)
    await a.store.add(item(1, "invoice for acme"))
    assert "acme" in await a.observe(scope, "invoice")
    await a.store.add(item(2, "invoice for globex"))
    assert "acme" in await a.observe(scope, "invoice")  # still in view, not swapped out
    assert "globex" in await a.observe(MemoryScope("main", "u", "s9", 1), "invoice")
    assert "globex" in await a.observe(scope, "globex invoice")  # more shared words win
