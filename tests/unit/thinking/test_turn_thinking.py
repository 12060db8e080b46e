"""The thinking step in a real AgentSession turn, with the scripted model (issue 26 items 1-2).

A failed thought (timeout, provider error, bad JSON, Stop) must leave the answer exactly as with
the engine off: the same model context byte for byte, the same answer, the same history.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from pydantic import BaseModel

from jarvis.agent_layer.loop import AgentLoopConfig
from jarvis.agent_layer.sessions import MemorySessionStore, SessionInfo
from jarvis.agent_layer.thought import Route, load_weights
from jarvis.agent_layer.thought.engine import (
    THOUGHT_MARKER,
    InnerThoughtEngine,
    TemplateSource,
)
from jarvis.agent_layer.tools import NoTools
from jarvis.common.clock import Clock
from jarvis.core.session import AgentSession, SessionSetup
from jarvis.core.thinking import EngineMode, TurnThinking, runs_thought
from jarvis.model_layer import FauxProvider, FauxResponse
from jarvis.model_layer.config import StreamOptions
from jarvis.model_layer.events import StreamEvent
from jarvis.model_layer.messages import LLMContext
from jarvis.model_layer.provider import Provider

THINKY = "배포가 자꾸 실패하는데 로그를 보고 원인을 찾아서 고치는 계획을 세워줘"
FRAME = (
    '{"interpretation": "배포 실패 원인 찾기", "decision": "use_tools", "confidence": 0.8,'
    ' "frame": "1. 로그 읽기\\n2. 원인 정리"}'
)


class FixedClock(Clock):
    def now_ms(self) -> int:
        return 1_000


class Model(Provider):
    """The answer model scripted by call: thought calls get `thought`, the rest `answer`."""

    def __init__(self, thought: FauxResponse | None, answer: str = "답입니다.") -> None:
        self.thought = thought
        self.answer = FauxProvider(script=lambda ctx: answer)
        self.thought_calls = 0
        self.hang = asyncio.Event()  # set → a thought call never answers
        self.thought_started = asyncio.Event()
        self.options: list[StreamOptions | None] = []

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        if ctx.system_prompt.startswith(THOUGHT_MARKER):
            self.thought_calls += 1
            self.thought_started.set()
            if self.hang.is_set():
                await asyncio.Event().wait()
            assert self.thought is not None
            async for event in FauxProvider([self.thought]).stream(model, ctx, options):
                yield event
            return
        self.options.append(options)
        async for event in self.answer.stream(model, ctx, options):
            yield event


async def make_session(
    model: Provider, thinking: TurnThinking
) -> tuple[AgentSession, MemorySessionStore]:
    store = MemorySessionStore()
    setup = SessionSetup(
        agent_id="main",
        agent_name="JARVIS",
        provider=model,
        model="m",
        system_prompt=lambda tools: "SYSTEM",
        tools=NoTools,
        store=store,
        memory=None,
        loop_config=AgentLoopConfig(),
        input_max_length=1000,
        clock=FixedClock(),
        thinking=thinking,
    )
    info = SessionInfo(id="s1")
    await store.create(info)
    return AgentSession(setup, info), store


async def run_turn(
    model: Model,
    mode: EngineMode,
    text: str = THINKY,
    *,
    effort: str | None = None,
    abort_during_thought: bool = False,
) -> tuple[AgentSession, list[BaseModel], MemorySessionStore]:
    # a hung thought times out (a short limit), unless the test stops it first
    timeout = 0.05 if model.hang.is_set() and not abort_during_thought else 30.0
    engine = InnerThoughtEngine(model, "m", TemplateSource(None), timeout_sec=timeout)
    thinking = TurnThinking(load_weights(), mode=mode, engine=engine, effort=effort)
    session, store = await make_session(model, thinking)
    events: list[BaseModel] = []
    session.subscribe(events.append)
    if abort_during_thought:
        task = asyncio.create_task(session.prompt(text))
        await model.thought_started.wait()
        session.abort()
        await task
    else:
        await session.prompt(text)
    return session, events, store


def types(events: list[BaseModel]) -> list[str]:
    return [str(getattr(e, "type", "")) for e in events]


async def test_every_prompt_is_routed_and_the_engine_off_makes_no_thought_call() -> None:
    model = Model(thought=None)
    _, events, _ = await run_turn(model, "off")
    assert types(events)[0] == "thought_route"
    route = events[0]
    assert route.think is True and route.engine == "off"
    assert "thought_end" not in types(events) and model.thought_calls == 0


async def test_auto_thinks_and_the_frame_joins_this_turn_only() -> None:
    model = Model(thought=FauxResponse(text=FRAME))
    _, events, store = await run_turn(model, "auto")
    assert types(events)[:3] == ["thought_route", "inner_thought", "thought_end"]
    assert events[2].ok is True
    assert events[1].decision == "use_tools"
    seen = model.answer.calls[-1].messages[-1].content
    assert "1. 로그 읽기" in seen and seen.endswith(THINKY)
    history = await store.history("s1")
    stored = [e.message.content for e in history]
    assert stored == [THINKY, "답입니다."]  # the frame is never stored, never the answer
    assert not any("로그 읽기" in m for m in stored)


async def test_auto_does_not_think_on_a_routed_skip_and_always_skips_hard_rules() -> None:
    model = Model(thought=FauxResponse(text=FRAME))
    _, events, _ = await run_turn(model, "auto", "README 열어줘")
    assert model.thought_calls == 0 and "thought_end" not in types(events)
    _, events, _ = await run_turn(model, "always", "README 열어줘")
    assert model.thought_calls == 1 and getattr(events[2], "ok", None) is True
    _, events, _ = await run_turn(model, "always", "고마워!")
    assert model.thought_calls == 1 and "thought_end" not in types(events)


@pytest.mark.parametrize(
    "failure",
    ["bad_output", "provider_error", "empty_script", "timeout"],
)
async def test_a_failed_thought_leaves_the_turn_byte_identical_to_engine_off(failure: str) -> None:
    baseline = Model(thought=None)
    _, base_events, base_store = await run_turn(baseline, "off")
    thought = {
        "bad_output": FauxResponse(text='{"interpretation": "half'),
        "provider_error": FauxResponse(error="502 bad gateway", error_kind="server"),
        "empty_script": FauxResponse(text=""),
        "timeout": FauxResponse(text=FRAME),
    }[failure]
    model = Model(thought=thought)
    if failure == "timeout":
        model.hang.set()
    _, events, store = await run_turn(model, "auto")
    ends = [e for e in events if getattr(e, "type", "") == "thought_end"]
    assert len(ends) == 1 and ends[0].ok is False
    assert "inner_thought" not in types(events)
    # what the answer model saw, byte for byte, and what was said and stored
    assert model.answer.calls[-1].model_dump_json() == baseline.answer.calls[-1].model_dump_json()
    assert [e.model_dump_json() for e in events if _answer_side(e)] == [
        e.model_dump_json() for e in base_events if _answer_side(e)
    ]
    assert [e.message for e in await store.history("s1")] == [
        e.message for e in await base_store.history("s1")
    ]


async def test_stop_during_the_thought_ends_it_and_the_turn() -> None:
    model = Model(thought=FauxResponse(text=FRAME))
    model.hang.set()
    _, events, _ = await run_turn(model, "auto", abort_during_thought=True)
    ends = [e for e in events if getattr(e, "type", "") == "thought_end"]
    assert len(ends) == 1 and ends[0].ok is False
    assert ends[0].reason == "aborted"
    assert events[-1].ended_by == "aborted"


async def test_think_buys_the_effort_setting_only_when_routed_and_configured() -> None:
    model = Model(thought=None)
    await run_turn(model, "off", effort="high")
    await run_turn(model, "off", "README 열어줘", effort="high")
    await run_turn(model, "off")
    efforts = [o.reasoning_effort if o else None for o in model.options]
    assert efforts == ["high", None, None]


@pytest.mark.parametrize(
    ("mode", "think", "reason", "runs"),
    [
        ("off", True, "model:why_how", False),
        ("auto", True, "model:why_how", True),
        ("auto", False, "model:single_action", False),
        ("always", False, "model:single_action", True),
        ("always", True, "asked_to_think", True),
        ("always", False, "approval_answer", False),
        ("always", False, "slash_command", False),
        ("always", False, "yes_no", False),
        ("always", False, "acknowledgement", False),
    ],
)
def test_runs_thought(mode: EngineMode, think: bool, reason: str, runs: bool) -> None:
    assert runs_thought(mode, Route(think, 0.5, reason)) is runs


def _answer_side(event: BaseModel) -> bool:
    return getattr(event, "type", "") not in ("thought_route", "thought_end", "inner_thought")
