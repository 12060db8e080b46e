"""Anthropic Messages streaming (tool use, thinking) on the official SDK — an optional extra.

The SDK retries 429, 5xx/529 and connection errors before any output, honouring Anthropic's
`retry-after` and `x-should-retry` headers; a stream that breaks off is not retried.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from jarvis.common.i18n import Language
from jarvis.model_layer.config import ModelSettings, StreamOptions
from jarvis.model_layer.events import (
    ErrorKind,
    ProviderError,
    Stop,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallEvent,
)
from jarvis.model_layer.messages import ImagePart, LLMContext, Message, ToolSpec, Usage
from jarvis.model_layer.provider import Provider
from jarvis.model_layer.providers._common import (
    classify_sdk_error,
    parse_tool_call,
    provider_error,
)

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic, AsyncStream
    from anthropic.types import RawContentBlockDelta, RawMessageStreamEvent
    from anthropic.types import Usage as AnthropicUsage

# ModelSettings' default points at Ollama, which does not speak the Messages API.
_OLLAMA_DEFAULT = "http://localhost:11434/v1"
# The Messages API requires max_tokens.
_DEFAULT_MAX_TOKENS = 4096
_STOP_REASONS = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}


def to_anthropic_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Tool results go back as user `tool_result` blocks; consecutive user turns are merged."""
    out: list[dict[str, Any]] = []
    for message in messages:
        role, blocks = _blocks(message)
        if out and out[-1]["role"] == role == "user":
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    return out


def _blocks(message: Message) -> tuple[str, list[dict[str, Any]]]:
    if message.role == "user":
        return "user", [{"type": "text", "text": message.content}]
    if message.role == "tool":
        content: str | list[dict[str, Any]] = message.content
        if message.images:
            content = [{"type": "text", "text": message.content}, *map(_image, message.images)]
        result = {
            "type": "tool_result",
            "tool_use_id": message.tool_call_id,
            "content": content,
            "is_error": message.is_error,
        }
        return "user", [result]
    blocks: list[dict[str, Any]] = []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    blocks.extend(
        {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
        for c in message.tool_calls
    )
    # The API rejects an assistant turn with no content blocks.
    return "assistant", blocks or [{"type": "text", "text": "(no content)"}]


def _image(image: ImagePart) -> dict[str, Any]:
    source = {"type": "base64", "media_type": image.mime_type, "data": image.data}
    return {"type": "image", "source": source}


def to_anthropic_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {"name": s.name, "description": s.description, "input_schema": s.parameters} for s in tools
    ]


def _import_sdk() -> ModuleType:
    try:
        import anthropic
    except ImportError as exc:
        raise RuntimeError(
            "the anthropic provider needs the 'anthropic' extra: "
            "uv sync --extra anthropic (or pip install 'jarvis-assistant[anthropic]')"
        ) from exc
    return anthropic


class AnthropicProvider(Provider):
    name = "anthropic"

    def __init__(self, settings: ModelSettings, *, language: Language = "ko") -> None:
        self._sdk = _import_sdk()
        self.settings = settings
        self.language = language
        base_url = None if settings.base_url == _OLLAMA_DEFAULT else settings.base_url
        self.client: AsyncAnthropic = self._sdk.AsyncAnthropic(
            api_key=settings.api_key.get_secret_value() if settings.api_key else None,
            base_url=base_url,
            timeout=settings.timeout_sec,
            max_retries=settings.max_retries,
        )
        # What error messages name: the configured URL, or the SDK's default.
        self.base_url = base_url or str(self.client.base_url)

    @classmethod
    def from_settings(cls, settings: ModelSettings, language: Language = "ko") -> AnthropicProvider:
        return cls(settings, language=language)

    async def aclose(self) -> None:
        await self.client.close()

    def _request(
        self, model: str, ctx: LLMContext, options: StreamOptions | None
    ) -> dict[str, Any]:
        options = options or StreamOptions()
        max_tokens = options.max_tokens or self.settings.max_tokens or _DEFAULT_MAX_TOKENS
        request: dict[str, Any] = {
            "model": model,
            "messages": to_anthropic_messages(ctx.messages),
            "max_tokens": max_tokens,
        }
        if ctx.system_prompt:
            request["system"] = ctx.system_prompt
        if ctx.tools:
            request["tools"] = to_anthropic_tools(ctx.tools)
        temperature = options.temperature
        if temperature is None:
            temperature = self.settings.temperature
        if temperature is not None:
            request["temperature"] = temperature
        return request

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        lang = (options.language if options else None) or self.language
        try:
            events = await self.client.messages.create(
                **self._request(model, ctx, options), stream=True
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            yield self._error(exc, model, lang)
            return
        async for event in self._read(events, model, lang):
            yield event

    async def _read(
        self, events: AsyncStream[RawMessageStreamEvent], model: str, lang: Language
    ) -> AsyncIterator[StreamEvent]:
        state = _StreamState()
        try:
            async with events:  # releases the connection when the consumer stops early
                async for event in events:
                    for out in state.feed(event):
                        yield out
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # broke off mid-stream: what arrived stays, and no retry
            yield self._error(exc, model, lang, mid_stream=True)
            return
        yield Stop(reason=_STOP_REASONS.get(state.reason, state.reason), usage=state.usage)

    def _error(
        self, exc: Exception, model: str, lang: Language, *, mid_stream: bool = False
    ) -> ProviderError:
        kind, detail = self._classify(exc, mid_stream)
        return provider_error(kind, detail, base_url=self.base_url, model=model, lang=lang)

    def _classify(self, exc: Exception, mid_stream: bool) -> tuple[ErrorKind, str]:
        if _is_missing_key(exc):
            return "auth", str(exc)
        if mid_stream and isinstance(exc, self._sdk.APIStatusError):
            # An `event: error` inside a 200 stream (e.g. overloaded_error) is the server's fault.
            return "server", f"the stream broke off: {exc.message}"
        return classify_sdk_error(
            exc,
            status_error=self._sdk.APIStatusError,
            connection_error=self._sdk.APIConnectionError,
            mid_stream=mid_stream,
        )


def _is_missing_key(exc: Exception) -> bool:
    # With no key in settings or ANTHROPIC_API_KEY, the SDK raises this before any request.
    return isinstance(exc, TypeError) and "authentication method" in str(exc)


@dataclass
class _PendingTool:
    id: str
    name: str
    json_parts: list[str] = field(default_factory=list)


@dataclass
class _StreamState:
    """Folds Messages stream events into ours; tool input JSON is joined per content block."""

    tools: dict[int, _PendingTool] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    reason: str = "end_turn"

    def feed(self, event: RawMessageStreamEvent) -> list[StreamEvent]:
        if event.type == "message_start":
            self.usage = Usage(
                input_tokens=_input_tokens(event.message.usage),
                output_tokens=event.message.usage.output_tokens,
            )
        elif event.type == "content_block_start":
            block = event.content_block
            if block.type == "tool_use":
                self.tools[event.index] = _PendingTool(block.id, block.name)
        elif event.type == "content_block_delta":
            return self._delta(event.index, event.delta)
        elif event.type == "content_block_stop":
            tool = self.tools.pop(event.index, None)
            if tool is not None:
                call = parse_tool_call(tool.id, tool.name, "".join(tool.json_parts))
                return [ToolCallEvent(tool_call=call)]
        elif event.type == "message_delta":
            self.reason = event.delta.stop_reason or self.reason
            self.usage.output_tokens = event.usage.output_tokens
        return []

    def _delta(self, index: int, delta: RawContentBlockDelta) -> list[StreamEvent]:
        if delta.type == "text_delta":
            return [TextDelta(delta=delta.text)]
        if delta.type == "thinking_delta":
            return [ThinkingDelta(delta=delta.thinking)]
        if delta.type == "input_json_delta" and index in self.tools:
            self.tools[index].json_parts.append(delta.partial_json)
        return []


def _input_tokens(usage: AnthropicUsage) -> int:
    # Cached prompt tokens are reported apart; the model still read them.
    cached = (usage.cache_creation_input_tokens or 0) + (usage.cache_read_input_tokens or 0)
    return usage.input_tokens + cached
