"""The agent loop: LLM call → tools → LLM call …, with the seed's stopping rules.

Rules (SPEC §5, seed 004 "넘침 이어가기", seed 000):
- at most `max_turns` rounds; `sequential` tools run one by one, the rest concurrently;
- an empty answer gets one nudge per round (the nudge is not recorded);
- a round whose results are all non-error `final` ends the turn with their text;
- a round whose results are all human/timeout denials ends the turn with the fixed line, with
  no further LLM call;
- `config.opening`, when set, is the first round's message instead of a model call (a tool
  call the turn's thought decided on): its calls go through the tool gate like any;
- running out of rounds while tools are still being called is an overflow: one summary call
  without tools, then `max(1, max_turns // 2)` more rounds with the summary appended (not
  recorded); a second overflow returns a fresh summary as the answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

from jarvis.agent_layer.abortable import Aborted, unless_aborted
from jarvis.agent_layer.context_budget import fit
from jarvis.agent_layer.events import (
    AgentEnd,
    AgentError,
    AgentStart,
    EventSink,
    MessageUpdate,
    TurnStart,
)
from jarvis.agent_layer.loop_types import (
    SUMMARY_MAX_CHARS,
    AgentLoopConfig,
    ContextHook,
    EndedBy,
    LoopResult,
    ModelCall,
    ToolRun,
    consume_stream,
)
from jarvis.agent_layer.tool_run import run_tool
from jarvis.agent_layer.tools import LoopTools, ToolCallContext, ToolResult
from jarvis.common.i18n import Language, t
from jarvis.model_layer.messages import (
    AssistantMessage,
    LLMContext,
    Message,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from jarvis.model_layer.provider import Provider

_T = TypeVar("_T")

__all__ = [
    "SUMMARY_MAX_CHARS",
    "AgentLoopConfig",
    "ContextHook",
    "EndedBy",
    "LoopResult",
    "ToolRun",
    "run_agent_loop",
]


async def run_agent_loop(
    *,
    provider: Provider,
    model: str,
    system_prompt: str,
    history: list[Message],
    tools: LoopTools,
    emit: EventSink,
    tool_context: ToolCallContext,
    config: AgentLoopConfig | None = None,
    agent_name: str = "JARVIS",
    transform_context: ContextHook | None = None,
) -> LoopResult:
    """Run one user turn. `history` is what the model sees, ending with the new user message."""
    loop = _Loop(
        provider=provider,
        model=model,
        system_prompt=system_prompt,
        context=list(history),
        tools=tools,
        emit=emit,
        tool_context=tool_context,
        config=config or AgentLoopConfig(),
        transform_context=transform_context,
        turn_start=max(0, len(history) - 1),
    )
    emit(AgentStart(agent_name=agent_name))
    result = await loop.run()
    final = result.messages[-1] if result.messages else None
    emit(
        AgentEnd(
            final_message=final if isinstance(final, AssistantMessage) else None,
            turns=result.turns,
            overflows=result.overflows,
            usage=result.usage,
            ended_by=result.ended_by,
        )
    )
    return result


@dataclass
class _Loop:
    provider: Provider
    model: str
    system_prompt: str
    context: list[Message]
    tools: LoopTools
    emit: EventSink
    tool_context: ToolCallContext
    config: AgentLoopConfig
    transform_context: ContextHook | None
    turn_start: int = 0  # where this turn begins in `context` (earlier turns may be dropped)
    shrunk: bool = False  # the one retry after a context overflow was used
    deadline_hit: bool = False
    new_messages: list[Message] = field(default_factory=list)
    tool_runs: list[ToolRun] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    turns: int = 0
    overflows: int = 0

    @property
    def lang(self) -> Language:
        return self.config.language

    async def run(self) -> LoopResult:
        timer = None
        if self.config.deadline_sec is not None:
            timer = asyncio.get_running_loop().call_later(self.config.deadline_sec, self._expire)
        try:
            return await self._run()
        except Aborted:
            if self.deadline_hit:
                line = t("loop.deadline", self.lang, seconds=f"{self.config.deadline_sec:g}")
                return self._finish(line, "deadline", stream=True)
            return self._finish(t("loop.aborted", self.lang), "aborted", record=False)
        finally:
            if timer is not None:
                timer.cancel()

    def _expire(self) -> None:
        """The turn ran past its deadline: stop it the way Stop does (tools killed, approvals
        cancelled, the history kept valid)."""
        self.deadline_hit = True
        self.tool_context.abort.set()

    async def _run(self) -> LoopResult:
        rounds = self.config.max_turns
        resume_summary: str | None = None
        while True:
            for index in range(rounds):
                extra = None
                if resume_summary is not None:
                    remaining = rounds - index
                    extra = t(
                        "loop.resume_instruction",
                        self.lang,
                        summary=resume_summary,
                        remaining=remaining,
                    )
                ended = await self._round(extra)
                if ended is not None:
                    return ended
            # Out of rounds with tool results still waiting for the model: an overflow.
            if not self.config.overflow_resume:
                line = t("loop.max_turns_stop", self.lang, max_turns=self.config.max_turns)
                return self._finish(line, "max_turns", stream=True)
            self.overflows += 1
            summary = await self._summarise()
            if self.overflows >= 2:
                return self._finish(summary, "overflow_summary", stream=True)
            resume_summary = summary
            rounds = max(1, self.config.max_turns // 2)

    async def _round(self, extra_instruction: str | None) -> LoopResult | None:
        """One LLM call and its tools; returns a result when the turn is over."""
        self._check_abort()
        self.turns += 1
        self.emit(TurnStart(turn=self.turns))
        specs = self.tools.specs()
        if self.turns == 1 and self.config.opening is not None:
            call = ModelCall(message=self.config.opening)  # decided by code, gated all the same
        else:
            call = await self._call_model(extra_instruction, with_tools=True, stream=True)
        if call.error is None and _is_empty(call.message):
            # One nudge per round; the nudge itself never enters the history.
            nudge = t("loop.empty_nudge", self.lang)
            instruction = f"{extra_instruction}\n\n{nudge}" if extra_instruction else nudge
            call = await self._call_model(instruction, with_tools=True, stream=True)
        if call.error is not None:
            return self._fail(call)
        message = call.message
        if not message.tool_calls:
            if _is_empty(message):  # a visible line, never a blank answer
                return self._finish(t("model.empty_answer", self.lang), "empty", stream=True)
            self._record(message)
            if message.stop_reason == "length":  # cut at the token limit: say so
                self.emit(MessageUpdate(text_delta="\n\n" + t("model.truncated", self.lang)))
                return self._result(message.content, "truncated")
            return self._result(message.content, "answer")
        self._record(message)
        names = {spec.name for spec in specs}
        results = await self._run_tools(message.tool_calls, names)
        return self._after_tools(message.tool_calls, results)

    def _after_tools(self, calls: list[ToolCall], results: list[ToolResult]) -> LoopResult | None:
        if all(result.denial is not None for result in results):
            tools = ", ".join(dict.fromkeys(call.name for call in calls))
            timed_out = all(result.denial == "timeout" for result in results)
            key = "approval.timeout_turn_end" if timed_out else "approval.denied_turn_end"
            return self._finish(
                t(key, self.lang, tools=tools), "timeout" if timed_out else "denied", stream=True
            )
        if all(result.final and not result.is_error for result in results):
            text = "\n\n".join(result.content for result in results)
            return self._finish(text, "final_tool", stream=True)
        return None

    async def _run_tools(self, calls: list[ToolCall], known: set[str]) -> list[ToolResult]:
        results: dict[int, ToolResult] = {}
        batch: list[int] = []

        async def flush() -> None:
            outcomes = await self._race(
                asyncio.gather(*(self._run_tool(calls[i]) for i in batch)), calls, results
            )
            results.update(zip(batch, outcomes, strict=True))
            batch.clear()

        for index, call in enumerate(calls):
            sequential = call.name in known and self.tools.execution_mode(call.name) == "sequential"
            if sequential:
                await flush() if batch else None
                batch.append(index)
                await flush()
            else:
                batch.append(index)
        if batch:
            await flush()
        ordered = [results[i] for i in range(len(calls))]
        for call, result in zip(calls, ordered, strict=True):
            self._record(
                ToolResultMessage(
                    tool_call_id=call.id,
                    tool_name=call.name,
                    content=result.content,
                    is_error=result.is_error,
                    images=result.images,
                )
            )
            self.tool_runs.append(ToolRun(call=call, result=result))
        return ordered

    async def _run_tool(self, call: ToolCall) -> ToolResult:
        return await run_tool(call, self.tools, self.tool_context, self.emit, self.lang)

    async def _race(
        self,
        work: Coroutine[Any, Any, _T] | asyncio.Future[_T],
        calls: list[ToolCall] | None = None,
        results: dict[int, ToolResult] | None = None,
    ) -> _T:
        """Await `work` unless the turn is aborted first; on abort, close the history cleanly."""
        try:
            return await unless_aborted(work, self.tool_context.abort)
        except Aborted:
            if calls is not None:
                # Every recorded tool call gets a result, so the history stays valid for providers.
                done = results or {}
                for index, call in enumerate(calls):
                    content = done[index].content if index in done else t("loop.aborted", self.lang)
                    self._record(
                        ToolResultMessage(
                            tool_call_id=call.id,
                            tool_name=call.name,
                            content=content,
                            is_error=index not in done,
                        )
                    )
            raise

    async def _call_model(
        self, instruction: str | None, *, with_tools: bool, stream: bool
    ) -> ModelCall:
        messages = list(self.context)
        if instruction:
            messages.append(UserMessage(content=instruction))
        ctx = LLMContext(
            system_prompt=self.system_prompt,
            messages=messages,
            tools=self.tools.specs() if with_tools else [],
        )
        if self.transform_context is not None:
            ctx = await self.transform_context(ctx)
        call = await self._race(self._consume(self._fitted(ctx), stream))
        error = call.error
        if error is not None and error.kind == "context_overflow" and not self.shrunk:
            self.shrunk = True  # once: earlier turns out, tool results cut hard
            window = error.context_window or self.config.context_window
            call = await self._race(self._consume(self._fitted(ctx, window, True), stream))
        return call

    def _fitted(
        self, ctx: LLMContext, window: int | None = None, shrink: bool = False
    ) -> LLMContext:
        window = window or self.config.context_window
        if window is None and not shrink:
            return ctx
        fitted = fit(
            ctx.system_prompt,
            ctx.messages,
            ctx.tools,
            window=window or 1 << 30,
            reserve=self.config.reply_reserve,
            keep_from=self.turn_start,
            shrink=shrink,
        )
        return ctx.model_copy(update={"messages": fitted.messages})

    async def _consume(self, ctx: LLMContext, stream: bool) -> ModelCall:
        call = await consume_stream(
            self.provider.stream(self.model, ctx, self.config.options), self.emit, stream
        )
        self.usage = self.usage + call.message.usage
        return call

    async def _summarise(self) -> str:
        """The summary call: no tools, not streamed, not recorded; capped at 2,000 chars."""
        self._check_abort()
        call = await self._call_model(
            t("loop.summary_request", self.lang), with_tools=False, stream=False
        )
        self._check_abort()
        summary = call.message.content.strip() if call.error is None else ""
        return summary[:SUMMARY_MAX_CHARS] if summary else self._fallback_summary()

    def _fallback_summary(self) -> str:
        names = list(dict.fromkeys(run.call.name for run in self.tool_runs))
        if not names:
            return t("loop.fallback_summary_no_tools", self.lang)
        return t("loop.fallback_summary", self.lang, tools=", ".join(names))

    def _check_abort(self) -> None:
        if self.tool_context.abort.is_set():
            raise Aborted

    def _record(self, message: Message) -> None:
        self.context.append(message)
        self.new_messages.append(message)

    def _finish(
        self, text: str, ended_by: EndedBy, *, stream: bool = False, record: bool = True
    ) -> LoopResult:
        if stream and text:
            self.emit(MessageUpdate(text_delta=text))
        if record and text:
            self._record(AssistantMessage(content=text))
        return self._result(text, ended_by)

    def _fail(self, call: ModelCall) -> LoopResult:
        assert call.error is not None
        self.emit(AgentError(message=call.error.message, kind=call.error.kind))
        # The history stays a coherent pair (the prompt, then this marker): never a run of user
        # messages, never a broken answer saved as complete.
        partial = call.message.content
        marker = t("loop.error_marker", self.lang, kind=call.error.kind)
        content = f"{partial}\n\n{marker}" if partial else marker
        self._record(AssistantMessage(content=content, stop_reason="error"))
        result = self._result(partial, "error")
        result.error = call.error.message
        return result

    def _result(self, text: str, ended_by: EndedBy) -> LoopResult:
        return LoopResult(
            messages=self.new_messages,
            final_text=text,
            ended_by=ended_by,
            turns=self.turns,
            overflows=self.overflows,
            usage=self.usage,
            tool_runs=self.tool_runs,
        )


def _is_empty(message: AssistantMessage) -> bool:
    return not message.content.strip() and not message.tool_calls
