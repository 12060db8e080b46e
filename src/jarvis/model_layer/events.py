"""Stream events: the one shape every provider's `stream()` produces.

A stream always ends with exactly one `Stop` or one `ProviderError`; providers never raise.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from jarvis.model_layer.messages import ToolCall, Usage


class TextDelta(BaseModel):
    type: Literal["text_delta"] = "text_delta"
    delta: str


class ThinkingDelta(BaseModel):
    type: Literal["thinking_delta"] = "thinking_delta"
    delta: str


class ToolCallEvent(BaseModel):
    """A complete tool call (argument fragments already joined and parsed)."""

    type: Literal["tool_call"] = "tool_call"
    tool_call: ToolCall


class Stop(BaseModel):
    """The answer is complete. `reason`: `stop`, `tool_use`, or `length` (cut off at the token
    limit: the text is incomplete and should be shown as truncated). A stream that ends without
    the server saying why is never a Stop: it is a `ProviderError` of kind `broken_stream`."""

    type: Literal["stop"] = "stop"
    reason: str = "stop"
    usage: Usage = Usage()


ErrorKind = Literal[
    "unreachable",
    "timeout",
    "auth",
    "model_not_found",
    "not_found",
    "rate_limited",
    "context_overflow",
    "bad_request",
    "broken_stream",
    "server",
    "preempted",  # a background call cancelled for the person's turn (`lanes`)
    "other",
]


class ProviderError(BaseModel):
    type: Literal["error"] = "error"
    message: str
    kind: ErrorKind = "other"
    # Set for `context_overflow` when the server said the sizes (llama.cpp, vLLM, OpenAI).
    prompt_tokens: int | None = None
    context_window: int | None = None


StreamEvent = TextDelta | ThinkingDelta | ToolCallEvent | Stop | ProviderError
