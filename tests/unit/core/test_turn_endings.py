"""Every started turn ends with exactly one `agent_end` or `agent_error`, and only after the turn
is stored; a failed write says so; Stop is never silent (queued turns, running tools)."""

from __future__ import annotations

import asyncio
import errno
from typing import Any

import psycopg
from pydantic import BaseModel

from jarvis.agent_layer.loop import AgentLoopConfig
from jarvis.agent_layer.sessions import MemorySessionStore, SessionEntry, SessionInfo
from jarvis.agent_layer.tools import LoopTools, ToolCallContext, ToolResult
from jarvis.core.session import AgentSession, SessionSetup
from jarvis.model_layer import FauxProvider, FauxResponse, FauxToolCall, ToolSpec
from jarvis.model_layer.messages import LLMContext, ToolCall
from tests.unit.core.test_session import TickClock

ENDINGS = ("agent_end", "agent_error")


class FlakyStore(MemorySessionStore):
    """A memory store whose n-th append (1-based) or every read fails like a real outage."""

    def __init__(self, fail_append: int | None = None, error: Exception | None = None) -> None:
        super().__init__()
        self.fail_append = fail_append
        self.error = error or OSError(errno.ENOSPC, "No space left on device", "/h/s1.jsonl")
        self.appends = 0
        self.fail_reads = False

    async def append(self, session_id: str, entries: list[SessionEntry]) -> None:
        self.appends += 1
        if self.appends == self.fail_append:
            raise self.error
        await super().append(session_id, entries)

    async def recent(self, session_id: str, turns: int) -> list[SessionEntry]:
        if self.fail_reads:
            raise psycopg.OperationalError("connection refused")
        return await super().recent(session_id, turns)


class SlowTool(LoopTools):
    """One tool that runs until it is cancelled, and says when it has started."""

    def __init__(self) -> None:
        self.started = asyncio.Event()

    def specs(self) -> list[ToolSpec]:
        return [ToolSpec(name="slow", description="waits")]

    def execution_mode(self, name: str) -> Any:
        return "parallel"

    async def execute(self, call: ToolCall, ctx: ToolCallContext) -> ToolResult:
        self.started.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def make(
    provider: FauxProvider, store: MemorySessionStore, tools: LoopTools | None = None
) -> tuple[AgentSession, list[BaseModel]]:
    setup = SessionSetup(
        agent_id="main",
        agent_name="JARVIS",
        provider=provider,
        model="faux",
        system_prompt=lambda tools: "SYSTEM",
        tools=(lambda: tools) if tools is not None else SlowTool,
        store=store,
        memory=None,
        loop_config=AgentLoopConfig(),
        input_max_length=1000,
        clock=TickClock(),
    )
    info = SessionInfo(id="s1")
    session = AgentSession(setup, info)
    events: list[BaseModel] = []
    session.subscribe(events.append)
    return session, events


def endings(events: list[BaseModel]) -> list[str]:
    return [e.type for e in events if getattr(e, "type", "") in ENDINGS]  # type: ignore[attr-defined]


async def started(store: MemorySessionStore) -> MemorySessionStore:
    await store.create(SessionInfo(id="s1"))
    return store


async def test_the_prompt_is_stored_before_the_model_is_called() -> None:
    store = await started(MemorySessionStore())

    def script(ctx: LLMContext) -> FauxResponse:
        stored = store._entries["s1"]  # what a crash at this moment would leave
        assert [e.message.role for e in stored] == ["user"]
        return FauxResponse(text="ok")

    session, events = make(FauxProvider(script=script), store)
    assert (await session.prompt("hello")).answer == "ok"
    assert endings(events) == ["agent_end"]


async def test_agent_end_goes_out_only_after_the_answer_is_stored() -> None:
    store = await started(MemorySessionStore())
    session, _ = make(FauxProvider(["stored answer"]), store)
    seen_at_end: list[list[str]] = []
    session.subscribe(
        lambda e: (
            seen_at_end.append([x.message.role for x in store._entries["s1"]])
            if getattr(e, "type", "") == "agent_end"
            else None
        )
    )
    await session.prompt("hello")
    assert seen_at_end == [["user", "assistant"]]


async def test_a_full_disk_for_the_prompt_runs_nothing_and_says_so() -> None:
    store = await started(FlakyStore(fail_append=1))
    provider = FauxProvider(["never"])
    session, events = make(provider, store)
    outcome = await session.prompt("hello")
    assert provider.calls == [] and outcome.ended_by == "error"
    (error,) = [e for e in events if getattr(e, "type", "") in ENDINGS]
    assert error.type == "agent_error" and error.kind == "storage"  # type: ignore[attr-defined]
    assert "disk full: /h/s1.jsonl" in error.message  # type: ignore[attr-defined]


async def test_a_full_disk_for_the_answer_keeps_it_visible_as_not_saved() -> None:
    store = await started(FlakyStore(fail_append=2))
    session, events = make(FauxProvider(["the answer"]), store)
    outcome = await session.prompt("hello")
    streamed = "".join(getattr(e, "text_delta", "") for e in events)
    assert streamed == "the answer" and outcome.error == "disk full: /h/s1.jsonl"
    assert endings(events) == ["agent_error"]
    assert "저장되지 않았습니다" in events[-1].message  # type: ignore[attr-defined]


async def test_a_database_outage_before_the_loop_ends_the_turn_with_one_error() -> None:
    store = await started(FlakyStore())
    store.fail_reads = True
    session, events = make(FauxProvider(["never"]), store)
    await session.prompt("hello")
    assert endings(events) == ["agent_error"]
    assert "database unavailable" in events[-1].message  # type: ignore[attr-defined]


async def test_a_model_error_is_one_agent_error_not_an_error_and_an_end() -> None:
    store = await started(MemorySessionStore())
    session, events = make(FauxProvider([FauxResponse(error="boom", error_kind="server")]), store)
    await session.prompt("hello")
    assert endings(events) == ["agent_error"]


async def test_stop_cancels_a_queued_turn_with_an_event() -> None:
    store = await started(MemorySessionStore())
    tools = SlowTool()
    provider = FauxProvider([FauxResponse(tool_calls=[FauxToolCall(name="slow")]), "never"])
    session, events = make(provider, store, tools)
    running = asyncio.create_task(session.prompt("first"))
    await tools.started.wait()
    queued = asyncio.create_task(session.prompt("second"))
    while len(session._aborts) < 2:  # the second turn is waiting for the lock
        await asyncio.sleep(0)
    assert session.abort()
    first, second = await asyncio.gather(running, queued)
    assert (first.ended_by, second.ended_by) == ("aborted", "aborted")
    assert endings(events) == ["agent_end", "agent_end"]
    assert len(provider.calls) == 1  # the queued turn never reached the model


async def test_an_aborted_tool_reports_its_end() -> None:
    store = await started(MemorySessionStore())
    tools = SlowTool()
    provider = FauxProvider([FauxResponse(tool_calls=[FauxToolCall(name="slow")])])
    session, events = make(provider, store, tools)
    turn = asyncio.create_task(session.prompt("go"))
    await tools.started.wait()
    session.abort()
    await turn
    (end,) = [e for e in events if getattr(e, "type", "") == "tool_execution_end"]
    assert end.is_error and end.decision == {"outcome": "aborted", "reason": "aborted"}  # type: ignore[attr-defined]
    assert endings(events) == ["agent_end"]
