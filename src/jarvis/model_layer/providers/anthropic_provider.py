"""Anthropic Messages (streaming, tool use) on the official SDK — an optional extra."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

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
from jarvis.model_layer.messages import LLMContext, Message, Usage
from jarvis.model_layer.provider import Provider
from jarvis.model_layer.providers._common import (
    classify_sdk_error,
    parse_tool_call,
    provider_error,
)

_OLLAMA_DEFAULT = "http://localhost:11434/v1"
_DEFAULT_MAX_TOKENS = 4096


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
        return "user", [
            {
                "type": "tool_result",
                "tool_use_id": message.tool_call_id,
                "content": message.content,
                "is_error": message.is_error,
            }
        ]
    blocks: list[dict[str, Any]] = []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    blocks.extend(
        {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
        for c in message.tool_calls
    )
    return "assistant", blocks or [{"type": "text", "text": "(no content)"}]


@dataclass
class _Block:
    kind: str
    id: str = ""
    name: str = ""
    json_parts: list[str] = field(default_factory=list)


class AnthropicProvider(Provider):
    name = "anthropic"

    def __init__(self, settings: ModelSettings, *, language: Language = "ko") -> None:
        try:
            import anthropic
        except ImportError as exc:  # an optional extra
            raise RuntimeError(
                "the anthropic provider needs the 'anthropic' extra: "
                "uv sync --extra anthropic (or pip install 'jarvis-assistant[anthropic]')"
            ) from exc
        self._sdk = anthropic
        self.settings = settings
        self.language = language
        base_url = None if settings.base_url == _OLLAMA_DEFAULT else settings.base_url
        self.client = anthropic.AsyncAnthropic(
            api_key=settings.api_key.get_secret_value() if settings.api_key else None,
            base_url=base_url,
            timeout=settings.timeout_sec,
            max_retries=settings.max_retries,
        )

    @classmethod
    def from_settings(cls, settings: ModelSettings, language: Language = "ko") -> AnthropicProvider:
        return cls(settings, language=language)

    @property
    def base_url(self) -> str:
        return str(self.client.base_url)

    async def aclose(self) -> None:
        await self.client.close()

    def _request(
        self, model: str, ctx: LLMContext, options: StreamOptions | None
    ) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": model,
            "messages": to_anthropic_messages(ctx.messages),
            "max_tokens": (options and options.max_tokens)
            or self.settings.max_tokens
            or _DEFAULT_MAX_TOKENS,
        }
        if ctx.system_prompt:
            request["system"] = ctx.system_prompt
        if ctx.tools:
            request["tools"] = [
                {"name": s.name, "description": s.description, "input_schema": s.parameters}
                for s in ctx.tools
            ]
        temperature = (options and options.temperature) or self.settings.temperature
        if temperature is not None:
            request["temperature"] = temperature
        return request

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        try:
            response = await self.client.messages.create(
                **self._request(model, ctx, options), stream=True
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            yield self._error(exc)
            return
        async for event in self._read(response):
            yield event

    async def _read(self, response: Any) -> AsyncIterator[StreamEvent]:
        blocks: dict[int, _Block] = {}
        usage = Usage()
        reason = "stop"
        try:
            async for event in response:
                kind = event.type
                if kind == "message_start":
                    usage.input_tokens = event.message.usage.input_tokens or 0
                elif kind == "content_block_start":
                    block = event.content_block
                    blocks[event.index] = _Block(
                        block.type, getattr(block, "id", ""), getattr(block, "name", "")
                    )
                elif kind == "content_block_delta":
                    delta = _delta(event.delta, blocks.get(event.index))
                    if delta is not None:
                        yield delta
                elif kind == "content_block_stop":
                    done = blocks.get(event.index)
                    if done is not None and done.kind == "tool_use":
                        yield ToolCallEvent(
                            tool_call=parse_tool_call(done.id, done.name, "".join(done.json_parts))
                        )
                elif kind == "message_delta":
                    reason = event.delta.stop_reason or reason
                    usage.output_tokens = event.usage.output_tokens or usage.output_tokens
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            yield self._error(exc, mid_stream=True)
            return
        yield Stop(reason="tool_use" if reason == "tool_use" else reason, usage=usage)

    def _error(self, exc: Exception, *, mid_stream: bool = False) -> ProviderError:
        kind, detail = classify_sdk_error(
            exc,
            status_error=self._sdk.APIStatusError,
            connection_error=self._sdk.APIConnectionError,
            mid_stream=mid_stream,
        )
        return provider_error(
            kind, detail, base_url=self.base_url, model=self.settings.model, lang=self.language
        )


def _delta(delta: Any, block: _Block | None) -> StreamEvent | None:
    if delta.type == "text_delta":
        return TextDelta(delta=delta.text)
    if delta.type == "thinking_delta":
        return ThinkingDelta(delta=delta.thinking)
    if delta.type == "input_json_delta" and block is not None:
        block.json_parts.append(delta.partial_json)
    return None
