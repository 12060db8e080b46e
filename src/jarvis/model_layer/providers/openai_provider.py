"""OpenAI Chat Completions streaming on the official SDK.

Works with OpenAI, Ollama (`/v1`), vLLM, llama.cpp server and LM Studio.

Retries with backoff on 429/5xx and connection errors happen in the SDK before any output.
Some compatible servers refuse streaming when tools are present; then this provider falls back
to one non-streaming request for that model, remembers it, and emits the same events.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import openai
from openai import AsyncOpenAI

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
from jarvis.model_layer.messages import AssistantMessage, LLMContext, Message, ToolSpec, Usage
from jarvis.model_layer.provider import Provider
from jarvis.model_layer.providers._common import (
    classify_sdk_error,
    parse_tool_call,
    provider_error,
)


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
    out: dict[str, Any] = {"role": "assistant", "content": message.content or None}
    if message.tool_calls:
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": json.dumps(call.arguments, ensure_ascii=False),
                },
            }
            for call in message.tool_calls
        ]
    return out


def to_openai_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {"name": s.name, "description": s.description, "parameters": s.parameters},
        }
        for s in tools
    ]


def refuses_streaming_with_tools(error: openai.APIStatusError) -> bool:
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
        client: AsyncOpenAI | None = None,
    ) -> None:
        self.settings = settings
        self.language = language
        key = settings.api_key.get_secret_value() if settings.api_key else "ollama"
        self.client = client or AsyncOpenAI(
            base_url=settings.base_url,
            api_key=key,
            timeout=settings.timeout_sec,
            max_retries=settings.max_retries,
        )
        self._no_stream_with_tools: set[str] = set()

    @classmethod
    def from_settings(cls, settings: ModelSettings, language: Language = "ko") -> OpenAIProvider:
        return cls(settings, language=language)

    async def aclose(self) -> None:
        await self.client.close()

    def _request(
        self, model: str, ctx: LLMContext, options: StreamOptions | None
    ) -> dict[str, Any]:
        request: dict[str, Any] = {"model": model, "messages": to_openai_messages(ctx)}
        if ctx.tools:
            request["tools"] = to_openai_tools(ctx.tools)
        temperature = (options and options.temperature) or self.settings.temperature
        max_tokens = (options and options.max_tokens) or self.settings.max_tokens
        if temperature is not None:
            request["temperature"] = temperature
        if max_tokens is not None:
            request["max_tokens"] = max_tokens
        return request

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        request = self._request(model, ctx, options)
        if ctx.tools and model in self._no_stream_with_tools:
            async for event in self._complete(request):
                yield event
            return
        try:
            response = await self.client.chat.completions.create(
                **request, stream=True, stream_options={"include_usage": True}
            )
        except openai.APIStatusError as exc:
            if ctx.tools and refuses_streaming_with_tools(exc):
                self._no_stream_with_tools.add(model)
                async for event in self._complete(request):
                    yield event
                return
            yield self._error(exc)
            return
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            yield self._error(exc)
            return
        async for event in self._read_stream(response):
            yield event

    async def _read_stream(self, response: Any) -> AsyncIterator[StreamEvent]:
        calls: dict[int, _PendingCall] = {}
        usage = Usage()
        reason = "stop"
        try:
            async for chunk in response:
                if chunk.usage is not None:
                    usage = Usage(
                        input_tokens=chunk.usage.prompt_tokens or 0,
                        output_tokens=chunk.usage.completion_tokens or 0,
                    )
                for choice in chunk.choices:
                    for event in _delta_events(choice.delta, calls):
                        yield event
                    if choice.finish_reason:
                        reason = choice.finish_reason
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the connection broke mid-stream: keep what arrived
            yield self._error(exc, mid_stream=True)
            return
        for index in sorted(calls):
            pending = calls[index]
            yield ToolCallEvent(
                tool_call=parse_tool_call(
                    pending.id or f"call_{index}", pending.name, "".join(pending.arguments)
                )
            )
        yield Stop(reason=_stop_reason(reason, bool(calls)), usage=usage)

    async def _complete(self, request: dict[str, Any]) -> AsyncIterator[StreamEvent]:
        """The non-streaming fallback, emitting the same events as a stream would."""
        try:
            response = await self.client.chat.completions.create(**request)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            yield self._error(exc)
            return
        choice = response.choices[0]
        reasoning = _reasoning(choice.message)
        if reasoning:
            yield ThinkingDelta(delta=reasoning)
        if choice.message.content:
            yield TextDelta(delta=choice.message.content)
        tool_calls = choice.message.tool_calls or []
        for index, call in enumerate(tool_calls):
            function = getattr(call, "function", None)
            yield ToolCallEvent(
                tool_call=parse_tool_call(
                    call.id or f"call_{index}",
                    getattr(function, "name", ""),
                    getattr(function, "arguments", "") or "",
                )
            )
        usage = Usage()
        if response.usage is not None:
            usage = Usage(
                input_tokens=response.usage.prompt_tokens or 0,
                output_tokens=response.usage.completion_tokens or 0,
            )
        yield Stop(
            reason=_stop_reason(choice.finish_reason or "stop", bool(tool_calls)), usage=usage
        )

    def _error(self, exc: Exception, *, mid_stream: bool = False) -> ProviderError:
        kind, detail = classify_sdk_error(
            exc,
            status_error=openai.APIStatusError,
            connection_error=openai.APIConnectionError,
            mid_stream=mid_stream,
        )
        return provider_error(
            kind,
            detail,
            base_url=self.settings.base_url,
            model=self.settings.model,
            lang=self.language,
        )


def _delta_events(delta: Any, calls: dict[int, _PendingCall]) -> list[StreamEvent]:
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


def _reasoning(obj: Any) -> str:
    """Servers put thinking in `reasoning_content` (vLLM, DeepSeek) or `reasoning` (Ollama)."""
    extra = getattr(obj, "model_extra", None) or {}
    value = extra.get("reasoning_content") or extra.get("reasoning")
    return value if isinstance(value, str) else ""


def _stop_reason(reason: str, has_calls: bool) -> str:
    return "tool_use" if has_calls or reason == "tool_calls" else reason
