"""The agent loop's data: its settings, its result, and one model call read from a stream."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from jarvis.agent_layer.events import EventSink, MessageUpdate
from jarvis.agent_layer.tools import ToolResult
from jarvis.common.i18n import Language
from jarvis.model_layer.config import StreamOptions
from jarvis.model_layer.events import (
    ProviderError,
    Stop,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallEvent,
)
from jarvis.model_layer.messages import AssistantMessage, LLMContext, Message, ToolCall, Usage

EndedBy = Literal[
    "answer",
    "final_tool",
    "denied",
    "timeout",
    "overflow_summary",
    "max_turns",
    "aborted",
    "error",
    "empty",
    "truncated",
    "deadline",
]
ContextHook = Callable[[LLMContext], Awaitable[LLMContext]]
SUMMARY_MAX_CHARS = 2000


@dataclass
class AgentLoopConfig:
    max_turns: int = 20
    overflow_resume: bool = True
    language: Language = "ko"
    options: StreamOptions = field(default_factory=StreamOptions)
    # The model's context window in tokens (None: unknown, only an overflow error shrinks).
    context_window: int | None = None
    reply_reserve: int = 1024  # tokens kept free for the answer
    deadline_sec: float | None = None  # the whole turn; then it stops like a Stop, and says so
    # The first round decided by code instead of the model (the tool call a thought asks for,
    # e.g. `focus` on `start_focus`): recorded and run through the tool gate like the model's.
    opening: AssistantMessage | None = None


@dataclass
class ToolRun:
    call: ToolCall
    result: ToolResult


@dataclass
class LoopResult:
    """What one turn produced. `messages` are the new history entries, in order."""

    messages: list[Message]
    final_text: str
    ended_by: EndedBy
    turns: int = 0
    overflows: int = 0
    usage: Usage = field(default_factory=Usage)
    tool_runs: list[ToolRun] = field(default_factory=list)
    error: str | None = None


@dataclass
class ModelCall:
    """One assembled model response."""

    message: AssistantMessage
    error: ProviderError | None = None


async def consume_stream(
    events: AsyncIterator[StreamEvent], emit: EventSink, stream: bool
) -> ModelCall:
    """Assemble one response; text and thinking are emitted as they arrive when `stream`.
    The stream is closed here once read: left to the garbage collector, each unclosed async
    generator costs the event loop a thread-safe wake-up (a self-pipe write) to finalise it."""
    try:
        return await _assemble(events, emit, stream)
    finally:
        close = getattr(events, "aclose", None)
        if close is not None:
            await close()


async def _assemble(events: AsyncIterator[StreamEvent], emit: EventSink, stream: bool) -> ModelCall:
    message = AssistantMessage()
    text: list[str] = []
    thinking: list[str] = []
    async for event in events:
        if isinstance(event, TextDelta):
            text.append(event.delta)
            if stream:
                emit(MessageUpdate(text_delta=event.delta))
        elif isinstance(event, ThinkingDelta):
            thinking.append(event.delta)
            if stream:
                emit(MessageUpdate(thinking_delta=event.delta))
        elif isinstance(event, ToolCallEvent):
            message.tool_calls.append(event.tool_call)
        elif isinstance(event, Stop):
            message.stop_reason = event.reason
            message.usage = event.usage
            break
        elif isinstance(event, ProviderError):
            message.content = "".join(text)
            return ModelCall(message=message, error=event)
    message.content = "".join(text)
    message.thinking = "".join(thinking)
    return ModelCall(message=message)
