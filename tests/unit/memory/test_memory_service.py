"""MemoryService: section order, recall, window exclusion, episode limits."""

from __future__ import annotations

from jarvis.memory import MemoryScope, MemoryService, MemorySettings, make_episode


def episode(turn: int, utterance: str, session: str = "s1") -> object:
    return make_episode(
        agent_id="main",
        user_id="u",
        session_id=session,
        turn=turn,
        ts_ms=turn,
        utterance=utterance,
        answer="ok",
        successful_calls=[],
        outcome="success",
        overflow=False,
    )


async def test_sections_follow_the_seed_order() -> None:
    memory = MemoryService(MemorySettings())
    scope = MemoryScope("main", "u", "s1", 10)
    await memory.remember(scope, "shared", "team board", 1)
    await memory.remember(scope, "task_pattern", "always run tests", 1)
    await memory.remember(scope, "procedure", "deploy steps", 1)
    await memory.remember(scope, "fact", "user lives in Seoul", 1)
    earlier = MemoryScope("main", "u", "s0", 1)  # a stated fact of this turn is not recalled
    await memory.remember(earlier, "semantic", "deploy happens on friday", 1)
    block = await memory.observe(scope, "when is the deploy")
    order = ["[핵심 사실]", "[장기 기억]", "[절차 기억]", "[작업 패턴]", "[작업 공유 메모리]"]
    positions = [block.index(title) for title in order]
    assert positions == sorted(positions)
    assert "deploy happens on friday" in block


async def test_recall_skips_turns_the_model_already_sees() -> None:
    memory = MemoryService(MemorySettings(recent_turns=3, history_block=1))
    for turn in range(1, 6):
        await memory.record_episode(episode(turn, f"report number{turn} draft"))  # type: ignore[arg-type]
    block = await memory.observe(MemoryScope("main", "u", "s1", 6), "report draft")
    assert "number1" in block and "number2" in block
    assert "number3" not in block and "number5" not in block


async def test_recall_follows_the_block_window() -> None:
    """Turn 9 shows turns 6–8 (turns 1–5 were cut at once), turn 8 shows 1–7: recall takes
    exactly the turns the model does not see."""
    memory = MemoryService(MemorySettings(recent_turns=3, history_block=5, recall_limit=10))
    for turn in range(1, 9):
        await memory.record_episode(episode(turn, f"report number{turn} draft"))  # type: ignore[arg-type]
    at_8 = await memory.observe(MemoryScope("main", "u", "s1", 8), "report draft")
    assert "number" not in at_8
    at_9 = await memory.observe(MemoryScope("main", "u", "s1", 9), "report draft")
    assert all(f"number{turn} " in at_9 for turn in range(1, 6))
    assert not any(f"number{turn} " in at_9 for turn in range(6, 9))


async def test_on_a_cut_turn_the_carried_lines_take_the_episodes_slots_but_one() -> None:
    """Turn 9 carries turns 6–8 as lines (`memory/window.py`): of the 3 slots, episodes keep
    one (the most relevant older turn still comes back); turn 10 recalls more again."""
    memory = MemoryService(MemorySettings(recent_turns=3, history_block=5, recall_limit=3))
    for turn in range(1, 10):
        await memory.record_episode(episode(turn, f"report number{turn} draft"))  # type: ignore[arg-type]
    at_9 = await memory.observe(MemoryScope("main", "u", "s1", 9), "report draft")
    assert at_9.count("- report number") == 1
    at_10 = await memory.observe(MemoryScope("main", "u", "s1", 10), "report draft")
    assert at_10.count("- report number") > 1
    whole = MemoryService(MemorySettings(cut_keeps="turns", recall_limit=3))
    for turn in range(1, 10):
        await whole.record_episode(episode(turn, f"report number{turn} draft"))  # type: ignore[arg-type]
    assert (await whole.observe(MemoryScope("main", "u", "s1", 9), "report draft")).count(
        "- report number"
    ) > 1


async def test_recall_is_scoped_to_agent_and_user() -> None:
    memory = MemoryService(MemorySettings())
    await memory.record_episode(episode(1, "secret plan", session="other"))  # type: ignore[arg-type]
    assert await memory.observe(MemoryScope("karen", "u", "s9", 1), "secret plan") == ""
    assert await memory.observe(MemoryScope("main", "other-user", "s9", 1), "secret plan") == ""
    assert "secret plan" in await memory.observe(MemoryScope("main", "u", "s9", 1), "plan")


async def test_disabled_memory_injects_and_records_nothing() -> None:
    memory = MemoryService(MemorySettings(enabled=False))
    await memory.record_episode(episode(1, "hello world"))  # type: ignore[arg-type]
    assert await memory.episodes("main", "u") == []
    assert await memory.observe(MemoryScope("main", "u", "s2", 1), "hello world") == ""


def test_episode_limits() -> None:
    ep = make_episode(
        agent_id="main",
        user_id="u",
        session_id="s",
        turn=1,
        ts_ms=0,
        utterance="u" * 1500,
        answer="a" * 1500,
        successful_calls=[("bash", {"command": "c" * 500, "timeout": 5, "nested": {"k": "v"}})],
        outcome="success",
        overflow=True,
    )
    assert len(ep.utterance) == 1000 and len(ep.answer) == 1000
    args = ep.tool_calls[0].args
    assert len(args["command"]) == 200 and args["timeout"] == 5 and args["nested"] == "{'k': 'v'}"
    assert ep.metadata == {"overflow": True}


async def test_episodes_are_capped_per_person_and_the_word_index_shrinks_with_them() -> None:
    from jarvis.memory.store import InMemoryItemStore

    store = InMemoryItemStore(episode_limit=50)
    memory = MemoryService(MemorySettings(), store)
    held: list[tuple[int, int]] = []
    for turn in range(1, 1001):
        await memory.record_episode(episode(turn, f"turn{turn} report word{turn % 7}"))  # type: ignore[arg-type]
        if turn in (100, 1000):
            held.append(store.counts())
    assert held[0] == held[1]  # flat from turn 100 to turn 1,000
    kept = await memory.episodes("main", "u")
    assert [e.turn for e in kept] == list(range(951, 1001))  # the oldest went first
    block = await memory.observe(MemoryScope("main", "u", "s2", 1), "turn10 report")
    assert "turn10 " not in block  # a forgotten episode is not recalled


async def test_rehearsal_counts_are_bounded() -> None:
    from jarvis.memory.working import REHEARSAL_LIMIT, WorkingMemory

    working = WorkingMemory()
    for n in range(REHEARSAL_LIMIT * 3):
        working = working.rehearsed([f"item{n}", "favourite"])
    assert len(working.rehearsals) == REHEARSAL_LIMIT
    assert working.rehearsals["favourite"] == REHEARSAL_LIMIT * 3
