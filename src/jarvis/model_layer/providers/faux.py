"""The scripted model: tests, benchmarks and the offline demo use it instead of a real LLM.

A script is a list of responses (Python objects or a YAML/JSON file) consumed one per call, or a
function of the context. Calls are recorded so tests can check what the model was shown: the
last `keep_calls` contexts (`CALL_LOG_LIMIT` by default) in `calls`, and `call_count` in all,
so a long-running demo or benchmark holds a bounded log.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field
from ruamel.yaml import YAML

from jarvis.common.clock import new_id
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
from jarvis.model_layer.messages import LLMContext, ToolCall, Usage
from jarvis.model_layer.provider import Provider


class FauxToolCall(BaseModel):
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    # Raw argument text, to script a model that emits invalid JSON.
    raw_arguments: str | None = None
    id: str | None = None


class FauxResponse(BaseModel):
    text: str = ""
    thinking: str = ""
    tool_calls: list[FauxToolCall] = Field(default_factory=list)
    error: str | None = None
    error_kind: ErrorKind = "other"
    delay_sec: float = 0.0
    # Chunk size in characters for streamed text (token-sized pieces).
    chunk: int = 4
    # Why the answer stopped (default: `tool_use` with tool calls, else `stop`); `length` = cut.
    stop_reason: str | None = None


FauxScript = Callable[[LLMContext], FauxResponse | str]

# Contexts kept in `calls`: every test reads only the first few or the last; a context is a deep
# copy of the whole prompt, ~20 KB a turn in the demo.
CALL_LOG_LIMIT = 64


class FauxScriptExhausted(AssertionError):
    pass


def load_script_file(path: Path) -> list[FauxResponse]:
    """Read a YAML or JSON list of responses; a bare string item is a text answer."""
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else YAML(typ="safe").load(text)
    if not isinstance(data, list):
        raise ValueError(f"{path}: a faux script must be a list of responses")
    return [_coerce(item) for item in data]


def _coerce(item: FauxResponse | str | dict[str, Any]) -> FauxResponse:
    if isinstance(item, FauxResponse):
        return item
    if isinstance(item, str):
        return FauxResponse(text=item)
    return FauxResponse.model_validate(item)


class FauxProvider(Provider):
    """Scripted provider. `responses` are consumed in order; `script` computes each one."""

    name = "faux"

    def __init__(
        self,
        responses: Sequence[FauxResponse | str | dict[str, Any]] = (),
        *,
        script: FauxScript | None = None,
        keep_calls: int = CALL_LOG_LIMIT,
    ) -> None:
        self._queue = [_coerce(item) for item in responses]
        self._script = script
        self.keep_calls = keep_calls
        self.calls: list[LLMContext] = []
        self.call_count = 0

    @classmethod
    def from_settings(cls, settings: ModelSettings) -> FauxProvider:
        if settings.script:
            return cls(load_script_file(Path(settings.script).expanduser()))
        return cls(script=lambda ctx: "(faux) " + _last_user_text(ctx))

    def add(self, *responses: FauxResponse | str | dict[str, Any]) -> None:
        self._queue.extend(_coerce(item) for item in responses)

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def assert_complete(self) -> None:
        if self._queue:
            raise FauxScriptExhausted(f"{len(self._queue)} scripted responses were never used")

    def _next_response(self, ctx: LLMContext) -> FauxResponse | None:
        if self._script is not None:
            return _coerce(self._script(ctx))
        return self._queue.pop(0) if self._queue else None

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        self.call_count += 1
        if self.keep_calls > 0:
            self.calls.append(ctx.model_copy(deep=True))
            # Trimmed in batches, so a long run does not shift the list on every call.
            if len(self.calls) >= 2 * self.keep_calls:
                del self.calls[: -self.keep_calls]
        response = self._next_response(ctx)
        if response is None:
            yield ProviderError(message="faux script exhausted: no response left for this call")
            return
        if response.delay_sec:
            await asyncio.sleep(response.delay_sec)
        for piece in _chunks(response.thinking, response.chunk):
            yield ThinkingDelta(delta=piece)
        for piece in _chunks(response.text, response.chunk):
            yield TextDelta(delta=piece)
        if response.error:
            yield ProviderError(message=response.error, kind=response.error_kind)
            return
        for call in response.tool_calls:
            yield ToolCallEvent(tool_call=_to_tool_call(call))
        reason = response.stop_reason or ("tool_use" if response.tool_calls else "stop")
        usage = Usage(input_tokens=_approx_tokens(ctx), output_tokens=len(response.text) // 4)
        yield Stop(reason=reason, usage=usage)


def _to_tool_call(call: FauxToolCall) -> ToolCall:
    call_id = call.id or f"call_{new_id()[:12]}"
    if call.raw_arguments is None:
        return ToolCall(id=call_id, name=call.name, arguments=call.arguments)
    try:
        parsed = json.loads(call.raw_arguments)
    except json.JSONDecodeError as exc:
        return ToolCall(id=call_id, name=call.name, arguments_error=str(exc))
    if not isinstance(parsed, dict):
        return ToolCall(id=call_id, name=call.name, arguments_error="arguments are not an object")
    return ToolCall(id=call_id, name=call.name, arguments=parsed)


def _chunks(text: str, size: int) -> list[str]:
    size = max(1, size)
    return [text[i : i + size] for i in range(0, len(text), size)]


def _approx_tokens(ctx: LLMContext) -> int:
    return (len(ctx.system_prompt) + sum(len(getattr(m, "content", "")) for m in ctx.messages)) // 4


def _last_user_text(ctx: LLMContext) -> str:
    for message in reversed(ctx.messages):
        if message.role == "user":
            return message.content
    return ""
