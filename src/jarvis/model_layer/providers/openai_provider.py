"""OpenAI Chat Completions streaming on the official SDK.

Works with OpenAI, Ollama (`/v1`), vLLM, llama.cpp server and LM Studio.

Retries (429, 5xx, refused connections, before any output) are done here, not by the SDK: a
server that refuses tools with streaming answers with a 500, and that must fall back, not be
retried; a request the server calls invalid is never retried; a timeout is reported at once
(`server_errors`). The fallback is one non-streaming request; the provider remembers the model
and emits the same events either way. A stream that ends without a finish reason is not an
answer (`stream_guard`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import openai
from openai import AsyncOpenAI, AsyncStream
from openai.types.chat import ChatCompletionChunk

from jarvis.common.i18n import Language, t
from jarvis.model_layer.config import ModelSettings, StreamOptions
from jarvis.model_layer.events import ProviderError, Stop, StreamEvent, ToolCallEvent
from jarvis.model_layer.messages import LLMContext, Usage
from jarvis.model_layer.provider import Provider
from jarvis.model_layer.providers._common import provider_error
from jarvis.model_layer.providers.openai_wire import (
    completion_events,
    finished_calls,
    stop_reason,
    to_openai_messages,
    to_openai_tools,
    usage_of,
)
from jarvis.model_layer.providers.server_errors import (
    ServerFailure,
    failure_text,
    one_line,
    status_error,
    timeout_error,
)
from jarvis.model_layer.providers.stream_guard import StreamGuard

_T = TypeVar("_T")
_MAX_BACKOFF_SEC = 8.0
_MAX_RETRY_AFTER_SEC = 60.0


def refuses_streaming_with_tools(error: openai.APIStatusError) -> bool:
    """llama.cpp: 500 "Cannot use tools with stream"; vLLM and others: a 400 worded alike."""
    text = f"{error.message} {error.body}".lower()
    return error.status_code in (400, 422, 500, 501) and "stream" in text and "tool" in text


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
        self._images = settings.sends_images()

    @classmethod
    def from_settings(cls, settings: ModelSettings, language: Language = "ko") -> OpenAIProvider:
        return cls(settings, language=language)

    async def aclose(self) -> None:
        await self.client.close()

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        lang = (options.language if options else None) or self.language
        try:
            async for event in self._events(model, ctx, options, lang):
                yield event
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a failed request; mid-stream failures are handled while reading
            yield self._error(exc, model, lang)

    async def _events(
        self, model: str, ctx: LLMContext, options: StreamOptions | None, lang: Language
    ) -> AsyncIterator[StreamEvent]:
        request = self._request(model, ctx, options)
        chunks = None
        if not (ctx.tools and model in self._no_stream_with_tools):
            chunks = await self._open_stream(model, request)
        if chunks is not None:
            guard = StreamGuard()
            async for event in self._read_stream(chunks, model, guard, lang):
                yield event
            if not guard.ask_again:
                return
        # Tools refused with streaming, or a stream that broke before showing anything.
        async for event in self._answer_once(request, model, lang):
            yield event

    def _request(
        self, model: str, ctx: LLMContext, options: StreamOptions | None
    ) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": model,
            "messages": to_openai_messages(ctx, images=self._images),
        }
        if ctx.tools:
            request["tools"] = to_openai_tools(ctx.tools)
            if self.settings.tool_choice != "off":
                request["tool_choice"] = self.settings.tool_choice
        options = options or StreamOptions()
        temperature = _first_set(options.temperature, self.settings.temperature)
        max_tokens = _first_set(options.max_tokens, self.settings.max_tokens)
        if temperature is not None:
            request["temperature"] = temperature
        if max_tokens is not None:
            request["max_tokens"] = max_tokens
        if options.reasoning_effort is not None:
            request["reasoning_effort"] = options.reasoning_effort
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
        self,
        chunks: AsyncStream[ChatCompletionChunk],
        model: str,
        guard: StreamGuard,
        lang: Language,
    ) -> AsyncIterator[StreamEvent]:
        """The stream's events and its Stop or error; nothing final when `guard.ask_again`."""
        try:
            async for event in guard.read(chunks):
                yield event
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # broke off mid-stream: what arrived stays, and no retry
            yield self._error(exc, model, lang, mid_stream=guard.chunks > 0)
            return
        if guard.finish_reason is None:
            if not guard.ask_again:  # shown text stays; a half-received call is not run
                yield self._unfinished(lang, partial=True)
            return
        calls = finished_calls(guard.calls)
        for call in calls:
            yield call
        yield Stop(reason=stop_reason(guard.finish_reason, bool(calls)), usage=guard.usage)

    async def _answer_once(
        self, request: dict[str, Any], model: str, lang: Language
    ) -> AsyncIterator[StreamEvent]:
        """One non-streaming request, emitted as the events its stream would have produced."""
        completion = await self._with_retries(
            lambda: self.client.chat.completions.create(**request)
        )
        events, reason = completion_events(completion)
        if reason is None and not events:
            # A whole JSON answer with nothing in it and no reason is not an answer either.
            yield self._unfinished(lang, partial=False)
            return
        for event in events:
            yield event
        # A complete JSON body with content is an answer even when a lenient server omits the
        # finish reason (the body, unlike a stream, cannot stop half-way unnoticed).
        has_calls = any(isinstance(event, ToolCallEvent) for event in events)
        usage = usage_of(completion.usage) or Usage()
        yield Stop(reason=stop_reason(reason or "stop", has_calls), usage=usage)

    def _unfinished(self, lang: Language, *, partial: bool) -> ProviderError:
        key = "model.unfinished_partial" if partial else "model.unfinished"
        return ProviderError(message=t(key, lang), kind="broken_stream")

    def _error(
        self, exc: Exception, model: str, lang: Language, *, mid_stream: bool = False
    ) -> ProviderError:
        base_url = self.settings.base_url
        if isinstance(exc, openai.APITimeoutError) or (mid_stream and _is_timeout(exc)):
            return timeout_error(
                base_url=base_url, timeout_sec=self.settings.timeout_sec, lang=lang
            )
        if isinstance(exc, openai.APIStatusError):
            failure = _failure(exc)
            return status_error(failure, base_url=base_url, model=model, lang=lang)
        if mid_stream:
            detail = one_line(f"{type(exc).__name__}: {exc}")
            return ProviderError(
                message=t("model.stream_broke", lang, detail=detail), kind="server"
            )
        if isinstance(exc, openai.APIConnectionError):
            return provider_error(
                "unreachable", str(exc), base_url=base_url, model=model, lang=lang
            )
        detail = one_line(f"{type(exc).__name__}: {exc}")
        return provider_error("other", detail, base_url=base_url, model=model, lang=lang)


def _failure(exc: openai.APIStatusError) -> ServerFailure:
    return ServerFailure(exc.status_code, failure_text(exc.body, exc.message), exc.body)


def _is_timeout(exc: Exception) -> bool:
    # Mid-stream, httpx's ReadTimeout reaches us unwrapped by the SDK.
    return "timeout" in type(exc).__name__.lower()


def _retryable(exc: Exception) -> bool:
    if isinstance(exc, openai.APITimeoutError):
        return False  # reached but slow: see server_errors
    if isinstance(exc, openai.APIStatusError):
        return _failure(exc).retryable and not refuses_streaming_with_tools(exc)
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


def _first_set(*values: _T | None) -> _T | None:
    return next((v for v in values if v is not None), None)
