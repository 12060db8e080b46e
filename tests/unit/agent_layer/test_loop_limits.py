"""The loop with a real model's limits: a cut answer says so, a failed call leaves a coherent
history, the context is kept inside the window, an overflow shrinks and retries once, and a
turn has a deadline."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from pydantic import BaseModel

from jarvis.agent_layer.context_budget import fit
from jarvis.agent_layer.events import AgentError, MessageUpdate
from jarvis.agent_layer.loop import AgentLoopConfig, LoopResult, run_agent_loop
from jarvis.agent_layer.tools import ToolCallContext
from jarvis.common.i18n import t
from jarvis.model_layer import (
    AssistantMessage,
    FauxProvider,
    FauxResponse,
    Message,
    ToolResultMessage,
    UserMessage,
)
from jarvis.model_layer.messages import LLMContext
from tests.unit.agent_layer.test_loop import ScriptedTools, calls


async def run(
    provider: FauxProvider,
    history: list[Message] | None = None,
    config: AgentLoopConfig | None = None,
    tools: ScriptedTools | None = None,
) -> tuple[LoopResult, list[BaseModel]]:
    events: list[BaseModel] = []
    ctx = ToolCallContext(session_id="s1", agent_id="main", turn=1, abort=asyncio.Event())
    result = await run_agent_loop(
        provider=provider,
        model="faux",
        system_prompt="sys",
        history=[*(history or []), UserMessage(content="now")],
        tools=tools or ScriptedTools(),
        emit=events.append,
        tool_context=ctx,
        config=config,
    )
    return result, events


def streamed(events: list[BaseModel]) -> str:
    return "".join(e.text_delta for e in events if isinstance(e, MessageUpdate))


async def test_an_answer_cut_at_the_token_limit_says_so_and_keeps_its_reason() -> None:
    result, events = await run(FauxProvider([FauxResponse(text="half an", stop_reason="length")]))
    assert result.ended_by == "truncated"
    assert streamed(events) == "half an\n\n" + t("model.truncated")
    (answer,) = result.messages
    assert isinstance(answer, AssistantMessage) and answer.stop_reason == "length"
    assert answer.content == "half an"  # the note is shown, not stored as the model's words


async def test_a_failed_call_keeps_a_coherent_history_with_an_error_marker() -> None:
    broken = FauxResponse(text="partial", error="stream broke", error_kind="broken_stream")
    result, events = await run(FauxProvider([broken]))
    assert result.ended_by == "error"
    (marker,) = result.messages
    assert isinstance(marker, AssistantMessage) and marker.stop_reason == "error"
    assert marker.content.startswith("partial") and "broken_stream" in marker.content
    assert [e.kind for e in events if isinstance(e, AgentError)] == ["broken_stream"]


def long_history(turns: int, size: int) -> list[Message]:
    history: list[Message] = []
    for i in range(turns):
        history += [UserMessage(content=f"q{i} " + "x" * size), AssistantMessage(content=f"a{i}")]
    return history


async def test_earlier_turns_are_dropped_whole_to_fit_the_window() -> None:
    provider = FauxProvider(["ok"])
    config = AgentLoopConfig(context_window=2_000, reply_reserve=500)
    await run(provider, long_history(10, 900), config)
    sent = provider.calls[0].messages
    assert sent[-1] == UserMessage(content="now")
    assert isinstance(sent[0], UserMessage)  # a whole turn, never a lone answer
    assert 0 < len(sent) < 21
    assert [m.content[:2] for m in sent[:-1] if isinstance(m, UserMessage)] == [
        f"q{i}" for i in range(10 - (len(sent) - 1) // 2, 10)
    ]


async def test_within_the_window_nothing_is_dropped() -> None:
    provider = FauxProvider(["ok"])
    await run(provider, long_history(3, 10), AgentLoopConfig(context_window=8_000))
    assert len(provider.calls[0].messages) == 7


async def test_an_oversized_tool_result_is_cut_to_fit() -> None:
    def big(call: Any) -> Any:
        from jarvis.agent_layer.tools import ToolResult

        return ToolResult(content="y" * 60_000)

    provider = FauxProvider([calls("a"), "done"])
    config = AgentLoopConfig(context_window=4_000, reply_reserve=500)
    await run(provider, None, config, ScriptedTools(handler=big))
    result = provider.calls[1].messages[-1]
    assert isinstance(result, ToolResultMessage) and len(result.content) < 10_000
    assert "cut to fit" in result.content


async def test_a_context_overflow_shrinks_and_retries_once() -> None:
    seen: list[int] = []

    def script(ctx: LLMContext) -> FauxResponse:
        seen.append(len(ctx.messages))
        if len(seen) == 1:
            return FauxResponse(error="too long", error_kind="context_overflow")
        return FauxResponse(text="fits now")

    result, _ = await run(FauxProvider(script=script), long_history(4, 100))
    assert result.final_text == "fits now"
    assert seen == [9, 1]  # the retry carries this turn only


async def test_a_second_overflow_is_reported_not_retried_again() -> None:
    overflow = FauxResponse(error="too long", error_kind="context_overflow")
    provider = FauxProvider([overflow, overflow, "never"])
    result, _ = await run(provider, long_history(2, 10))
    assert result.ended_by == "error" and len(provider.calls) == 2


async def test_a_turn_past_its_deadline_stops_and_says_so() -> None:
    provider = FauxProvider([FauxResponse(text="slow", delay_sec=600)])
    result, events = await run(provider, config=AgentLoopConfig(deadline_sec=0.05))
    assert result.ended_by == "deadline"
    assert t("loop.deadline", seconds="0.05") in streamed(events)


def test_a_growing_history_drops_the_same_turns_until_a_quarter_more_is_needed() -> None:
    """Earlier turns go in steps of a quarter of the budget: while the history grows at its end
    the kept part starts at the same turn (a prompt cache keeps it); the start moves only when
    the excess passes the next quarter."""
    starts: list[str] = []
    for turns in range(4, 30):
        history = long_history(turns, 300)  # ~105 tokens a turn
        fitted = fit(
            "SYSTEM",
            [*history, UserMessage(content="now")],
            [],
            window=2_000,
            reserve=500,
            keep_from=len(history),
        )
        assert fitted.tokens <= 1_500 and fitted.messages[-1] == UserMessage(content="now")
        assert isinstance(fitted.messages[0], UserMessage)
        starts.append(str(fitted.messages[0].content).split()[0])
    moves = sum(a != b for a, b in itertools.pairwise(starts))
    assert 1 <= moves <= 26 // 3  # a quarter of 1,500 is ~3.5 turns of ~105 tokens
