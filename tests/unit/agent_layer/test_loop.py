"""The agent loop's rules, one test per rule of SPEC §5 / seed 004 / seed 000."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import BaseModel

from jarvis.agent_layer.events import AgentEnd, MessageUpdate, ToolExecutionEnd, ToolExecutionStart
from jarvis.agent_layer.loop import SUMMARY_MAX_CHARS, AgentLoopConfig, LoopResult, run_agent_loop
from jarvis.agent_layer.tools import ExecutionMode, ToolCallContext, ToolResult
from jarvis.common.i18n import t
from jarvis.model_layer import (
    AssistantMessage,
    FauxProvider,
    FauxResponse,
    FauxToolCall,
    ToolCall,
    ToolResultMessage,
    ToolSpec,
    UserMessage,
)


@dataclass
class ScriptedTools:
    """A tool surface whose results are computed by a function of the call."""

    handler: Callable[[ToolCall], ToolResult] = lambda call: ToolResult(content=f"ok:{call.name}")
    modes: dict[str, ExecutionMode] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    delay: float = 0.0
    active: int = 0
    max_active: int = 0

    def specs(self) -> list[ToolSpec]:
        return [ToolSpec(name=n, description=n) for n in ("a", "b", "seq", "bash", "calc")]

    def execution_mode(self, name: str) -> ExecutionMode:
        return self.modes.get(name, "parallel")

    async def execute(self, call: ToolCall, ctx: ToolCallContext) -> ToolResult:
        self.calls.append(call.name)
        self.active += 1
        self.max_active = max(self.max_active, self.active)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            return self.handler(call)
        finally:
            self.active -= 1


def tool(name: str, **arguments: Any) -> FauxToolCall:
    return FauxToolCall(name=name, arguments=arguments)


def calls(*names: str) -> FauxResponse:
    return FauxResponse(tool_calls=[tool(n) for n in names])


async def run(
    provider: FauxProvider,
    tools: ScriptedTools | None = None,
    *,
    config: AgentLoopConfig | None = None,
    abort: asyncio.Event | None = None,
) -> tuple[LoopResult, list[BaseModel]]:
    events: list[BaseModel] = []
    ctx = ToolCallContext(session_id="s1", agent_id="main", turn=1, abort=abort or asyncio.Event())
    result = await run_agent_loop(
        provider=provider,
        model="faux",
        system_prompt="sys",
        history=[UserMessage(content="hello")],
        tools=tools or ScriptedTools(),
        emit=events.append,
        tool_context=ctx,
        config=config,
    )
    return result, events


def always_tools(name: str = "a") -> FauxProvider:
    """A model that keeps calling a tool, except when asked for a summary (no tools given)."""

    def script(ctx: Any) -> FauxResponse:
        if not ctx.tools:
            return FauxResponse(text="SUMMARY: did a, b remains")
        return calls(name)

    return FauxProvider(script=script)


async def test_plain_answer_streams_and_is_recorded() -> None:
    provider = FauxProvider([FauxResponse(text="hello there", chunk=3)])
    result, events = await run(provider)
    assert result.ended_by == "answer"
    assert result.final_text == "hello there"
    deltas = [e.text_delta for e in events if isinstance(e, MessageUpdate)]
    assert "".join(deltas) == "hello there" and len(deltas) == 4
    assert [m.role for m in result.messages] == ["assistant"]
    assert events[0].type == "agent_start" and isinstance(events[-1], AgentEnd)


async def test_tool_call_then_answer_records_results_in_order() -> None:
    provider = FauxProvider([calls("a", "b"), FauxResponse(text="done")])
    result, events = await run(provider)
    assert result.ended_by == "answer"
    assert [m.role for m in result.messages] == ["assistant", "tool", "tool", "assistant"]
    kinds = [e.type for e in events if isinstance(e, ToolExecutionStart | ToolExecutionEnd)]
    assert kinds.count("tool_execution_start") == 2 and kinds.count("tool_execution_end") == 2
    second_call = provider.calls[1]
    assert isinstance(second_call.messages[-1], ToolResultMessage)


async def test_parallel_tools_overlap_and_sequential_tools_do_not() -> None:
    parallel = ScriptedTools(delay=0.05)
    await run(FauxProvider([calls("a", "b", "a"), FauxResponse(text="x")]), parallel)
    assert parallel.max_active == 3
    sequential = ScriptedTools(delay=0.02, modes={"seq": "sequential"})
    await run(FauxProvider([calls("seq", "seq", "seq"), FauxResponse(text="x")]), sequential)
    assert sequential.max_active == 1


async def test_sequential_call_splits_parallel_batches_and_keeps_order() -> None:
    tools = ScriptedTools(modes={"seq": "sequential"})
    result, _ = await run(FauxProvider([calls("a", "seq", "b"), FauxResponse(text="x")]), tools)
    names = [m.tool_name for m in result.messages if isinstance(m, ToolResultMessage)]
    assert names == ["a", "seq", "b"]
    assert tools.calls == ["a", "seq", "b"]


async def test_empty_answer_gets_one_nudge_not_recorded() -> None:
    provider = FauxProvider([FauxResponse(text=""), FauxResponse(text="now an answer")])
    result, _ = await run(provider)
    assert result.final_text == "now an answer"
    nudge = provider.calls[1].messages[-1]
    assert isinstance(nudge, UserMessage) and nudge.content == t("loop.empty_nudge")
    assert all(not isinstance(m, UserMessage) for m in result.messages)


async def test_empty_answer_twice_ends_without_more_calls() -> None:
    provider = FauxProvider([FauxResponse(text=""), FauxResponse(text="  "), "never used"])
    result, _ = await run(provider)
    assert result.ended_by == "empty" and len(provider.calls) == 2
    # A visible line, never a blank answer; recorded so the history stays prompt + answer.
    assert result.final_text == t("model.empty_answer")
    assert [m.content for m in result.messages] == [t("model.empty_answer")]


async def test_final_results_end_the_turn_with_their_text() -> None:
    tools = ScriptedTools(handler=lambda c: ToolResult(content=f"TABLE {c.name}", final=True))
    provider = FauxProvider([calls("a", "b"), "never used"])
    result, events = await run(provider, tools)
    assert result.ended_by == "final_tool"
    assert result.final_text == "TABLE a\n\nTABLE b"
    assert len(provider.calls) == 1
    assert isinstance(result.messages[-1], AssistantMessage)
    assert any(isinstance(e, MessageUpdate) and "TABLE a" in e.text_delta for e in events)


async def test_final_mixed_with_normal_result_goes_back_to_the_model() -> None:
    def handler(call: ToolCall) -> ToolResult:
        return ToolResult(content="t", final=call.name == "a")

    provider = FauxProvider([calls("a", "b"), FauxResponse(text="merged")])
    result, _ = await run(provider, ScriptedTools(handler=handler))
    assert result.final_text == "merged" and len(provider.calls) == 2


async def test_final_error_result_goes_back_to_the_model() -> None:
    tools = ScriptedTools(handler=lambda c: ToolResult(content="x", final=True, is_error=True))
    provider = FauxProvider([calls("a"), FauxResponse(text="recovered")])
    result, _ = await run(provider, tools)
    assert result.final_text == "recovered"


@pytest.mark.parametrize(
    ("denials", "key", "ended_by"),
    [
        (["user_deny"], "approval.denied_turn_end", "denied"),
        (["timeout"], "approval.timeout_turn_end", "timeout"),
        (["user_deny", "timeout"], "approval.denied_turn_end", "denied"),
        (["timeout", "timeout"], "approval.timeout_turn_end", "timeout"),
    ],
)
async def test_every_call_denied_ends_the_turn_by_code(
    denials: list[str], key: str, ended_by: str
) -> None:
    outcomes = iter(denials)

    def handler(call: ToolCall) -> ToolResult:
        return ToolResult(content="approval_denied", is_error=True, denial=next(outcomes))  # type: ignore[arg-type]

    provider = FauxProvider([calls(*["bash"] * len(denials)), "never used"])
    result, events = await run(provider, ScriptedTools(handler=handler))
    assert result.ended_by == ended_by
    assert result.final_text == t(key, tools="bash")
    assert len(provider.calls) == 1
    assert isinstance(result.messages[-1], AssistantMessage)
    assert result.messages[-1].content == t(key, tools="bash")
    assert any(isinstance(e, MessageUpdate) and e.text_delta == result.final_text for e in events)


async def test_denial_line_names_each_tool_once_in_english() -> None:
    handler = lambda c: ToolResult(content="no", is_error=True, denial="user_deny")  # noqa: E731
    provider = FauxProvider([calls("bash", "calc", "bash")])
    result, _ = await run(
        provider, ScriptedTools(handler=handler), config=AgentLoopConfig(language="en")
    )
    assert result.final_text == t("approval.denied_turn_end", "en", tools="bash, calc")


async def test_partial_denial_lets_the_model_continue() -> None:
    def handler(call: ToolCall) -> ToolResult:
        if call.name == "bash":
            return ToolResult(content="approval_denied", is_error=True, denial="user_deny")
        return ToolResult(content="fine")

    provider = FauxProvider([calls("bash", "a"), FauxResponse(text="did a, bash denied")])
    result, _ = await run(provider, ScriptedTools(handler=handler))
    assert result.ended_by == "answer" and len(provider.calls) == 2


async def test_policy_block_is_not_a_denial_and_continues() -> None:
    tools = ScriptedTools(handler=lambda c: ToolResult(content="blocked: dangerous", is_error=True))
    provider = FauxProvider([calls("bash"), FauxResponse(text="I cannot run that")])
    result, _ = await run(provider, tools)
    assert result.final_text == "I cannot run that"


async def test_max_turns_default_is_twenty_then_overflow() -> None:
    provider = always_tools()
    result, _ = await run(provider)
    # 20 rounds, summary, 10 resume rounds, summary.
    tool_rounds = [c for c in provider.calls if c.tools]
    assert len(tool_rounds) == 20 + 10
    assert len(provider.calls) == 32
    assert result.overflows == 2


async def test_overflow_resume_appends_summary_then_answers() -> None:
    responses = iter([calls("a"), calls("a")])

    def script(ctx: Any) -> FauxResponse:
        if not ctx.tools:
            return FauxResponse(text="SUMMARY-1")
        return next(responses, FauxResponse(text="finished after resume"))

    provider = FauxProvider(script=script)
    result, events = await run(provider, config=AgentLoopConfig(max_turns=2))
    assert result.ended_by == "answer" and result.overflows == 1
    summary_call = provider.calls[2]
    assert summary_call.tools == []
    assert summary_call.messages[-1].content == t("loop.summary_request")
    resume_call = provider.calls[3]
    assert isinstance(resume_call.messages[-1], UserMessage)
    assert "SUMMARY-1" in resume_call.messages[-1].content
    assert "1" in resume_call.messages[-1].content  # rounds left
    recorded = " ".join(getattr(m, "content", "") for m in result.messages)
    assert "SUMMARY-1" not in recorded
    streamed = "".join(e.text_delta for e in events if isinstance(e, MessageUpdate))
    assert "SUMMARY-1" not in streamed
    end = events[-1]
    assert isinstance(end, AgentEnd) and end.overflows == 1


async def test_resume_rounds_are_half_the_budget() -> None:
    provider = always_tools()
    await run(provider, config=AgentLoopConfig(max_turns=6))
    tool_rounds = [c for c in provider.calls if c.tools]
    assert len(tool_rounds) == 6 + 3
    resume_rounds = tool_rounds[6:]
    assert all("SUMMARY" in c.messages[-1].content for c in resume_rounds)
    for left, call in zip((3, 2, 1), resume_rounds, strict=True):
        assert f": {left}." in call.messages[-1].content


async def test_second_overflow_returns_the_summary_as_recorded_answer() -> None:
    result, events = await run(always_tools(), config=AgentLoopConfig(max_turns=2))
    assert result.ended_by == "overflow_summary" and result.overflows == 2
    assert result.final_text == "SUMMARY: did a, b remains"
    assert isinstance(result.messages[-1], AssistantMessage)
    assert result.messages[-1].content == result.final_text
    streamed = [e.text_delta for e in events if isinstance(e, MessageUpdate)]
    assert streamed == [result.final_text]


async def test_one_round_budget_still_resumes_once() -> None:
    provider = always_tools()
    result, _ = await run(provider, config=AgentLoopConfig(max_turns=1))
    assert len([c for c in provider.calls if c.tools]) == 2
    assert result.overflows == 2


async def test_summary_is_capped_at_2000_chars() -> None:
    def script(ctx: Any) -> FauxResponse:
        return FauxResponse(text="x" * 5000, chunk=500) if not ctx.tools else calls("a")

    result, _ = await run(FauxProvider(script=script), config=AgentLoopConfig(max_turns=1))
    assert len(result.final_text) == SUMMARY_MAX_CHARS


@pytest.mark.parametrize("failure", ["error", "empty"])
async def test_failed_summary_falls_back_to_tool_names(failure: str) -> None:
    def script(ctx: Any) -> FauxResponse:
        if ctx.tools:
            return calls("a", "calc")
        return FauxResponse(error="boom") if failure == "error" else FauxResponse(text="")

    result, _ = await run(FauxProvider(script=script), config=AgentLoopConfig(max_turns=1))
    assert result.final_text == t("loop.fallback_summary", tools="a, calc")


async def test_overflow_resume_off_is_a_hard_stop() -> None:
    provider = always_tools()
    result, _ = await run(provider, config=AgentLoopConfig(max_turns=3, overflow_resume=False))
    assert result.ended_by == "max_turns" and result.overflows == 0
    assert len(provider.calls) == 3 and all(c.tools for c in provider.calls)


async def test_llm_calls_stay_within_the_documented_bound() -> None:
    # Every round empty-then-tool: the nudge doubles calls per round, summaries add two.
    def script(ctx: Any) -> FauxResponse:
        if not ctx.tools:
            return FauxResponse(text="S")
        last = ctx.messages[-1]
        nudged = isinstance(last, UserMessage) and t("loop.empty_nudge") in last.content
        return calls("a") if nudged else FauxResponse(text="")

    provider = FauxProvider(script=script)
    await run(provider, config=AgentLoopConfig(max_turns=4))
    assert len(provider.calls) == 2 * (4 + 2) + 2


async def test_abort_during_model_call() -> None:
    abort = asyncio.Event()
    provider = FauxProvider([FauxResponse(text="slow", delay_sec=5)])
    loop = asyncio.get_running_loop()
    loop.call_later(0.05, abort.set)
    result, _ = await asyncio.wait_for(run(provider, abort=abort), 2)
    assert result.ended_by == "aborted" and result.messages == []


async def test_abort_during_tools_closes_every_tool_call_with_a_result() -> None:
    abort = asyncio.Event()
    tools = ScriptedTools(delay=5)
    asyncio.get_running_loop().call_later(0.05, abort.set)
    result, _ = await asyncio.wait_for(run(FauxProvider([calls("a", "b")]), tools, abort=abort), 2)
    assert result.ended_by == "aborted"
    results = [m for m in result.messages if isinstance(m, ToolResultMessage)]
    assert [r.tool_name for r in results] == ["a", "b"] and all(r.is_error for r in results)


async def test_abort_before_summary_stops_resume() -> None:
    abort = asyncio.Event()

    def handler(call: ToolCall) -> ToolResult:
        abort.set()
        return ToolResult(content="done")

    provider = always_tools()
    result, _ = await run(
        provider, ScriptedTools(handler=handler), abort=abort, config=AgentLoopConfig(max_turns=1)
    )
    assert result.ended_by == "aborted"
    assert all(c.tools for c in provider.calls)  # no summary call was made


async def test_provider_error_becomes_agent_error_event() -> None:
    provider = FauxProvider(
        [FauxResponse(text="partial", error="server down", error_kind="server")]
    )
    result, events = await run(provider)
    assert result.ended_by == "error" and result.error == "server down"
    errors = [e for e in events if e.type == "agent_error"]
    assert len(errors) == 1 and errors[0].message == "server down"  # type: ignore[attr-defined]


async def test_tool_exception_becomes_error_result() -> None:
    def handler(call: ToolCall) -> ToolResult:
        raise RuntimeError("kaput")

    provider = FauxProvider([calls("a"), FauxResponse(text="ok")])
    result, _ = await run(provider, ScriptedTools(handler=handler))
    tool_result = next(m for m in result.messages if isinstance(m, ToolResultMessage))
    assert tool_result.is_error and "kaput" in tool_result.content


async def test_transform_context_is_called_before_every_llm_call() -> None:
    seen: list[int] = []

    async def hook(ctx: Any) -> Any:
        seen.append(len(ctx.messages))
        return ctx.model_copy(update={"system_prompt": "changed"})

    provider = FauxProvider([calls("a"), FauxResponse(text="ok")])
    events: list[BaseModel] = []
    await run_agent_loop(
        provider=provider,
        model="m",
        system_prompt="sys",
        history=[UserMessage(content="hi")],
        tools=ScriptedTools(),
        emit=events.append,
        transform_context=hook,
        tool_context=ToolCallContext("s", "main", 1, asyncio.Event()),
    )
    assert seen == [1, 3]
    assert all(c.system_prompt == "changed" for c in provider.calls)
