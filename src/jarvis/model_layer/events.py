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
    type: Literal["stop"] = "stop"
    reason: str = "stop"
    usage: Usage = Usage()


ErrorKind = Literal["unreachable", "auth", "model_not_found", "rate_limited", "server", "other"]


class ProviderError(BaseModel):
    type: Literal["error"] = "error"
    message: str
    kind: ErrorKind = "other"


StreamEvent = TextDelta | ThinkingDelta | ToolCallEvent | Stop | ProviderError
