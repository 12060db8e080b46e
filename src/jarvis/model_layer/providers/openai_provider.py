"""OpenAI Chat Completions streaming on the official SDK.

Works with OpenAI, Ollama (`/v1`), vLLM, llama.cpp server and LM Studio.

Retries (429, 5xx, connection errors, before any output) are done here, not by the SDK: a server
that refuses tools with streaming answers with a 500, and that must fall back, not be retried.
The fallback is one non-streaming request; the provider remembers the model and emits the same
events either way.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import openai
from openai import AsyncOpenAI, AsyncStream
from openai.types import CompletionUsage
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.chat.chat_completion_chunk import ChoiceDelta

from jarvis.common.i18n import Language
from jarvis.model_layer.config import ModelSettings, StreamOptions
from jarvis.model_layer.events import (
    ProviderError,
    Stop,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallEvent,
)
from jarvis.model_layer.messages import (
    AssistantMessage,
    LLMContext,
    Message,
    ToolCall,
    ToolSpec,
    Usage,
)
from jarvis.model_layer.provider import Provider
from jarvis.model_layer.providers._common import (
    classify_sdk_error,
    parse_tool_call,
    provider_error,
)

_T = TypeVar("_T")
_MAX_BACKOFF_SEC = 8.0
_MAX_RETRY_AFTER_SEC = 60.0


def to_openai_messages(ctx: LLMContext) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    if ctx.system_prompt:
        messages.append({"role": "system", "content": ctx.system_prompt})
    messages.extend(_message(m) for m in ctx.messages)
    return messages


def _message(message: Message) -> dict[str, Any]:
    if message.role == "user":
        return {"role": "user", "content": message.content}
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    return _assistant(message)


def _assistant(message: AssistantMessage) -> dict[str, Any]:
    if not message.tool_calls:
        return {"role": "assistant", "content": message.content}
    # With tool calls and no text, the API wants `null` content, not "".
    return {
        "role": "assistant",
        "content": message.content or None,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": json.dumps(call.arguments, ensure_ascii=False),
                },
            }
            for call in message.tool_calls
        ],
    }


def to_openai_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {"name": s.name, "description": s.description, "parameters": s.parameters},
        }
        for s in tools
    ]


def refuses_streaming_with_tools(error: openai.APIStatusError) -> bool:
    """llama.cpp: 500 "Cannot use tools with stream"; vLLM and others: a 400 worded alike."""
    text = f"{error.message} {error.body}".lower()
    return error.status_code in (400, 422, 500, 501) and "stream" in text and "tool" in text


@dataclass
class _PendingCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class OpenAIProvider(Provider):
    name = "openai"

    def __init__(
        self,
        settings: ModelSettings,
        *,
        language: Language = "ko",
        retry_delay_sec: float = 0.5,
    ) -> None:
        self.settings = settings
        self.language = language
        self._retry_delay_sec = retry_delay_sec
        key = settings.api_key.get_secret_value() if settings.api_key else "ollama"
        self.client = AsyncOpenAI(
            base_url=settings.base_url,
            api_key=key,
            timeout=settings.timeout_sec,
            max_retries=0,  # `_with_retries` owns retrying (see the module docstring)
        )
        self._no_stream_with_tools: set[str] = set()

    @classmethod
    def from_settings(cls, settings: ModelSettings, language: Language = "ko") -> OpenAIProvider:
        return cls(settings, language=language)

    async def aclose(self) -> None:
        await self.client.close()

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        try:
            async for event in self._events(model, ctx, options):
                yield event
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a failed request; mid-stream failures are handled while reading
            yield self._error(exc, model)

    async def _events(
        self, model: str, ctx: LLMContext, options: StreamOptions | None
    ) -> AsyncIterator[StreamEvent]:
        request = self._request(model, ctx, options)
        chunks = None
        if not (ctx.tools and model in self._no_stream_with_tools):
            chunks = await self._open_stream(model, request)
        if chunks is None:
            completion = await self._with_retries(
                lambda: self.client.chat.completions.create(**request)
            )
            for event in _completion_events(completion):
                yield event
            return
        async for event in self._read_stream(chunks, model):
            yield event

    def _request(
        self, model: str, ctx: LLMContext, options: StreamOptions | None
    ) -> dict[str, Any]:
        request: dict[str, Any] = {"model": model, "messages": to_openai_messages(ctx)}
        if ctx.tools:
            request["tools"] = to_openai_tools(ctx.tools)
        options = options or StreamOptions()
        temperature = _first_set(options.temperature, self.settings.temperature)
        max_tokens = _first_set(options.max_tokens, self.settings.max_tokens)
        if temperature is not None:
            request["temperature"] = temperature
        if max_tokens is not None:
            request["max_tokens"] = max_tokens
        return request

    async def _open_stream(
        self, model: str, request: dict[str, Any]
    ) -> AsyncStream[ChatCompletionChunk] | None:
        """The streaming response, or None when the server refuses tools with streaming."""
        try:
            return await self._with_retries(
                lambda: self.client.chat.completions.create(
                    **request, stream=True, stream_options={"include_usage": True}
                )
            )
        except openai.APIStatusError as exc:
            if "tools" not in request or not refuses_streaming_with_tools(exc):
                raise
        self._no_stream_with_tools.add(model)
        return None

    async def _with_retries(self, call: Callable[[], Awaitable[_T]]) -> _T:
        for attempt in range(self.settings.max_retries):
            try:
                return await call()
            except Exception as exc:
                if not _retryable(exc):
                    raise
                await asyncio.sleep(self._backoff_sec(attempt, exc))
        return await call()

    def _backoff_sec(self, attempt: int, exc: Exception) -> float:
        """The server's Retry-After when it sends one, else exponential backoff with jitter."""
        hinted = _retry_after_sec(exc)
        if hinted is not None:
            return hinted
        delay = min(self._retry_delay_sec * 2.0**attempt, _MAX_BACKOFF_SEC)
        return delay * (1 - 0.25 * random.random())

    async def _read_stream(
        self, chunks: AsyncStream[ChatCompletionChunk], model: str
    ) -> AsyncIterator[StreamEvent]:
        calls: dict[int, _PendingCall] = {}
        usage = Usage()
        reason = "stop"
        try:
            async with chunks:  # releases the connection when the consumer stops early
                async for chunk in chunks:
                    usage = _usage(chunk.usage) or usage
                    for choice in chunk.choices:
                        for event in _delta_events(choice.delta, calls):
                            yield event
                        reason = choice.finish_reason or reason
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # broke off mid-stream: what arrived stays, and no retry
            yield self._error(exc, model, mid_stream=True)
            return
        for index, pending in sorted(calls.items()):
            call_id = pending.id or f"call_{index}"
            yield ToolCallEvent(
                tool_call=parse_tool_call(call_id, pending.name, "".join(pending.arguments))
            )
        yield Stop(reason=_stop_reason(reason, bool(calls)), usage=usage)

    def _error(self, exc: Exception, model: str, *, mid_stream: bool = False) -> ProviderError:
        kind, detail = classify_sdk_error(
            exc,
            status_error=openai.APIStatusError,
            connection_error=openai.APIConnectionError,
            mid_stream=mid_stream,
        )
        return provider_error(
            kind, detail, base_url=self.settings.base_url, model=model, lang=self.language
        )


def _retryable(exc: Exception) -> bool:
    if isinstance(exc, openai.APIStatusError):
        transient = exc.status_code == 429 or exc.status_code >= 500
        return transient and not refuses_streaming_with_tools(exc)
    return isinstance(exc, openai.APIConnectionError)


def _retry_after_sec(exc: Exception) -> float | None:
    if not isinstance(exc, openai.APIStatusError):
        return None
    for header, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            seconds = float(exc.response.headers[header]) * scale
        except (KeyError, ValueError):
            continue
        return max(0.0, min(seconds, _MAX_RETRY_AFTER_SEC))
    return None


def _delta_events(delta: ChoiceDelta, calls: dict[int, _PendingCall]) -> list[StreamEvent]:
    """Text and thinking come out at once; tool-call fragments are collected by `index`."""
    events: list[StreamEvent] = []
    reasoning = _reasoning(delta)
    if reasoning:
        events.append(ThinkingDelta(delta=reasoning))
    if delta.content:
        events.append(TextDelta(delta=delta.content))
    for part in delta.tool_calls or []:
        pending = calls.setdefault(part.index, _PendingCall())
        pending.id = part.id or pending.id
        if part.function is not None:
            pending.name = part.function.name or pending.name
            if part.function.arguments:
                pending.arguments.append(part.function.arguments)
    return events


def _completion_events(completion: ChatCompletion) -> list[StreamEvent]:
    """A non-streaming answer as the events a stream of it would have produced."""
    if not completion.choices:
        raise ValueError("the server answered with no choices")
    choice = completion.choices[0]
    events: list[StreamEvent] = []
    reasoning = _reasoning(choice.message)
    if reasoning:
        events.append(ThinkingDelta(delta=reasoning))
    if choice.message.content:
        events.append(TextDelta(delta=choice.message.content))
    calls = [
        _completed_call(index, call) for index, call in enumerate(choice.message.tool_calls or [])
    ]
    events.extend(ToolCallEvent(tool_call=call) for call in calls)
    usage = _usage(completion.usage) or Usage()
    # Lenient servers send no finish_reason; the SDK does not validate it.
    reason = _stop_reason(choice.finish_reason or "stop", bool(calls))
    events.append(Stop(reason=reason, usage=usage))
    return events


def _completed_call(index: int, call: Any) -> ToolCall:
    # `call` is a function or a custom tool call; only function calls carry JSON arguments.
    function = getattr(call, "function", None)
    name = getattr(function, "name", "") or ""
    return parse_tool_call(call.id or f"call_{index}", name, getattr(function, "arguments", ""))


def _usage(usage: CompletionUsage | None) -> Usage | None:
    if usage is None:
        return None
    return Usage(input_tokens=usage.prompt_tokens or 0, output_tokens=usage.completion_tokens or 0)


def _reasoning(obj: Any) -> str:
    """Servers put thinking in `reasoning_content` (vLLM, DeepSeek) or `reasoning` (Ollama)."""
    extra = getattr(obj, "model_extra", None) or {}
    value = extra.get("reasoning_content") or extra.get("reasoning")
    return value if isinstance(value, str) else ""


def _stop_reason(reason: str, has_calls: bool) -> str:
    return "tool_use" if has_calls or reason in ("tool_calls", "function_call") else reason


def _first_set(*values: _T | None) -> _T | None:
    return next((v for v in values if v is not None), None)
