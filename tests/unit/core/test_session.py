"""AgentSession.prompt(): validation → memory → loop → record → episode, per SPEC §6."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pydantic import BaseModel

from jarvis.agent_layer.loop import AgentLoopConfig
from jarvis.agent_layer.sessions import MemorySessionStore, SessionInfo
from jarvis.agent_layer.tools import NoTools
from jarvis.common.clock import Clock
from jarvis.core.session import AgentSession, SessionSetup, TurnOutcome
from jarvis.memory import MemoryService, MemorySettings
from jarvis.model_layer import FauxProvider, FauxResponse, FauxToolCall, ToolSpec, UserMessage


class TickClock(Clock):
    def __init__(self) -> None:
        self.now = 1_000

    def now_ms(self) -> int:
        self.now += 1
        return self.now


class OneUnknownTool(NoTools):
    """Advertises a tool it cannot run, so every call is an error result."""

    def specs(self) -> list[ToolSpec]:
        return [ToolSpec(name="missing", description="not really there")]


async def make_session(
    provider: FauxProvider, *, memory: bool = True, max_turns: int = 20
) -> tuple[AgentSession, MemorySessionStore, MemoryService]:
    store = MemorySessionStore()
    service = MemoryService(MemorySettings(enabled=memory))
    setup = SessionSetup(
        agent_id="main",
        agent_name="JARVIS",
        provider=provider,
        model="faux",
        system_prompt=lambda tools: "SYSTEM",
        tools=OneUnknownTool,
        store=store,
        memory=service,
        loop_config=AgentLoopConfig(max_turns=max_turns),
        input_max_length=100,
        clock=TickClock(),
    )
    info = SessionInfo(id="s1")
    await store.create(info)
    return AgentSession(setup, info), store, service


async def test_a_turn_is_recorded_with_the_user_message_first() -> None:
    session, store, _ = await make_session(FauxProvider(["hi!"]))
    outcome = await session.prompt("hello")
    assert outcome.answer == "hi!" and outcome.turn == 1
    entries = await store.history("s1")
    assert [(e.turn, e.message.role) for e in entries] == [(1, "user"), (1, "assistant")]
    info = await store.get_info("s1")
    assert info is not None and info.turns == 1 and info.title == "hello"


CARRIED_6_TO_8 = "[이전 대화]\n" + "\n".join(f"- question {i} → answer {i}" for i in (6, 7, 8))


async def test_the_model_sees_earlier_turns_in_blocks_at_least_three() -> None:
    """3 to 7 earlier turns, the oldest 5 dropped at once (`memory/window.py`); the 3 a cut
    keeps go on as one line each, in one block in front of the first message after the tools."""
    provider = FauxProvider([f"answer {i}" for i in range(1, 11)])
    session, _, _ = await make_session(provider)
    for i in range(1, 11):
        await session.prompt(f"question {i}")
    shown = [
        [m.content for m in call.messages if isinstance(m, UserMessage)] for call in provider.calls
    ]
    assert shown[7][:7] == [f"question {i}" for i in range(1, 8)]  # turn 8: all 7 earlier
    assert len(shown[8]) == 1 and shown[8][0].startswith(CARRIED_6_TO_8 + "\n\n")  # turn 9
    assert shown[8][0].endswith("\n\n[사용자 입력]\nquestion 9")
    assert shown[9][0] == shown[8][0]  # turn 10 re-sends the cut turn as it was sent
    assert "[장기 기억]\n- question 5" in shown[8][0]  # one episode beside the carried lines
    assert shown[9][1].endswith("\n\n[사용자 입력]\nquestion 10")  # after what memory recalls
    assert "[이전 대화]" not in shown[9][1]


async def test_a_resumed_session_re_sends_the_cut_turn_as_stored_with_the_carried_block() -> None:
    """What memory sent with the cut turn is kept in the process only: a session opened anew
    on the same store sends the cut turn's words with the carried block (no recall)."""
    provider = FauxProvider([f"answer {i}" for i in range(1, 11)])
    session, _, _ = await make_session(provider)
    for i in range(1, 10):
        await session.prompt(f"question {i}")
    resumed = AgentSession(session.setup, session.info)
    await resumed.prompt("question 10")
    first = provider.calls[-1].messages[0].content
    assert first == CARRIED_6_TO_8 + "\n\n[사용자 입력]\nquestion 9"


async def test_cut_keeps_turns_shows_the_kept_turns_whole() -> None:
    provider = FauxProvider([f"answer {i}" for i in range(1, 11)])
    session, _, service = await make_session(provider)
    service.settings = MemorySettings(cut_keeps="turns")
    for i in range(1, 11):
        await session.prompt(f"question {i}")
    shown = [
        [m.content for m in call.messages if isinstance(m, UserMessage)] for call in provider.calls
    ]
    assert shown[8][:3] == ["question 6", "question 7", "question 8"]  # turn 9: cut to 3
    assert shown[9][:4] == ["question 6", "question 7", "question 8", "question 9"]
    assert "[이전 대화]" not in str(shown)


async def test_the_carried_block_stays_until_the_next_cut_and_is_not_recalled_memory() -> None:
    """Turns 9–13 start with the same carried block (a prompt cache keeps it); turn 14 cuts
    again and carries 11–13. The block is not reported as recalled memory (the HUD's MEMORY
    card shows only `memory_recalled` items), and the store keeps only the person's words."""
    provider = FauxProvider([f"answer {i}" for i in range(1, 15)])
    session, store, _ = await make_session(provider)
    recalled: list[str] = []
    session.subscribe(
        lambda event: recalled.extend(
            item.text for item in getattr(event, "items", []) if event.type == "memory_recalled"
        )
    )
    for i in range(1, 15):
        await session.prompt(f"question {i}")
    firsts = [str(call.messages[0].content) for call in provider.calls]
    for turn in range(9, 14):
        assert firsts[turn - 1].startswith(CARRIED_6_TO_8 + "\n\n")
    later = "\n".join(f"- question {i} → answer {i}" for i in (11, 12, 13))
    assert firsts[13].startswith(f"[이전 대화]\n{later}\n\n")
    assert recalled  # episodes of turns no longer shown came back
    assert not any("[이전 대화]" in text or "question 6 →" in text for text in recalled)
    stored = [e.message.content for e in await store.history("s1") if e.message.role == "user"]
    assert stored == [f"question {i}" for i in range(1, 15)]


async def test_what_is_re_sent_is_byte_identical_between_cuts() -> None:
    """Between two cuts each call's history is the previous call's, plus the previous turn as
    stored: the earlier turns' words without the memory that rode with them once."""
    provider = FauxProvider([f"noted {i}" for i in range(8)])
    session, _, _ = await make_session(provider)
    await session.prompt("my parking spot is B12")
    for i in range(7):
        await session.prompt(f"where did I park, take {i}")
    for before, after in zip(provider.calls[1:], provider.calls[2:], strict=False):
        kept = before.messages[:-1]  # the earlier turns; the last is that turn's own message
        assert after.messages[: len(kept)] == kept
        assert after.messages[len(kept)].content == f"where did I park, take {len(kept) // 2 - 1}"
    assert "[사용자 입력]" not in str([m.content for m in provider.calls[-1].messages[:-1]])


async def test_recalled_memory_goes_with_this_turn_and_the_prefix_stays_stable() -> None:
    provider = FauxProvider([f"noted {i}" for i in range(9)])
    session, store, _ = await make_session(provider)
    await session.prompt("my parking spot is B12")
    for i in range(7):  # turn 9 shows turns 6–8: turn 1 comes back only through memory
        await session.prompt(f"filler {i}")
    await session.prompt("where is my parking spot")
    last = provider.calls[-1]
    assert last.system_prompt == "SYSTEM"  # the same every turn: a server's prompt cache holds
    current = last.messages[-1].content
    assert "[장기 기억]" in current and "B12" in current
    assert current.endswith("\n[사용자 입력]\nwhere is my parking spot")
    stored = [e.message.content for e in await store.history("s1") if e.message.role == "user"]
    assert stored[-1] == "where is my parking spot"  # the person's words, not the recall


async def test_invalid_input_runs_nothing_and_records_nothing() -> None:
    provider = FauxProvider(["never"])
    session, store, _ = await make_session(provider)
    events: list[BaseModel] = []
    session.subscribe(events.append)
    outcome = await session.prompt("<script>alert(1)</script>")
    assert outcome.ended_by == "invalid" and outcome.error
    assert provider.calls == [] and await store.history("s1") == []
    assert [e.type for e in events] == ["validation_error"]


async def test_passing_input_reaches_the_model_escaped() -> None:
    provider = FauxProvider(["ok"])
    session, _, _ = await make_session(provider)
    await session.prompt("a < b")
    assert provider.calls[0].messages[-1].content == "a &lt; b"


async def test_episode_records_overflow_and_successful_calls() -> None:
    def script(ctx: object) -> FauxResponse:
        if not getattr(ctx, "tools", None):
            return FauxResponse(text="summary")
        return FauxResponse(tool_calls=[FauxToolCall(name="missing", arguments={"x": 1})])

    session, _, memory = await make_session(FauxProvider(script=script), max_turns=1)
    await session.prompt("do a long thing")
    (episode,) = await memory.episodes("main", "local")
    assert episode.metadata == {"overflow": True}
    assert episode.tool_calls == []  # unknown tool calls are errors, not successes
    assert episode.outcome == "failure"


async def test_abort_stops_the_running_turn() -> None:
    session, _, _ = await make_session(FauxProvider([FauxResponse(text="x", delay_sec=600)]))
    model_called = asyncio.Event()
    session.subscribe(lambda e: model_called.set() if e.type == "turn_start" else None)  # type: ignore[attr-defined]
    task = asyncio.create_task(session.prompt("slow"))
    await model_called.wait()
    assert session.running and session.abort()
    outcome: TurnOutcome = await task
    assert outcome.ended_by == "aborted"
    assert not session.abort()


async def test_turns_are_serialised_per_session() -> None:
    provider = FauxProvider([FauxResponse(text="first", delay_sec=0.05), "second"])
    session, store, _ = await make_session(provider)
    await asyncio.gather(session.prompt("one"), session.prompt("two"))
    turns = [(e.turn, e.message.content) for e in await store.history("s1")]
    assert turns == [(1, "one"), (1, "first"), (2, "two"), (2, "second")]


async def test_a_failing_subscriber_does_not_break_the_turn(tmp_path: Path) -> None:
    session, _, _ = await make_session(FauxProvider(["fine"]))

    def broken(event: BaseModel) -> None:
        raise RuntimeError("ui crashed")

    session.subscribe(broken)
    assert (await session.prompt("hi")).answer == "fine"
