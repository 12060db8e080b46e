"""`/procedures learn`: which part of a session can be learned right away (seed 000).

A failed call followed later by a success of the same tool is a recovery: the failure is left
out and the successful path kept. A failure never recovered makes the segment unlearnable. At
least 3 successful tool uses are needed; automatic learning never learns from one success.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jarvis.agent_layer.sessions.base import SessionEntry
from jarvis.model_layer.messages import AssistantMessage, ToolResultMessage, UserMessage

MIN_TOOL_USES = 3


@dataclass(frozen=True)
class ToolUse:
    name: str
    args: dict[str, Any] = field(default_factory=dict)
    is_error: bool = False


def learnable_path(uses: list[ToolUse]) -> list[ToolUse] | None:
    path: list[ToolUse] = []
    for index, use in enumerate(uses):
        if not use.is_error:
            path.append(use)
            continue
        recovered = any(
            not later.is_error and later.name == use.name for later in uses[index + 1 :]
        )
        if not recovered:
            return None
    return path if len(path) >= MIN_TOOL_USES else None


@dataclass(frozen=True)
class Segment:
    first_turn: int
    last_turn: int
    request: str
    uses: list[ToolUse]


def session_segment(entries: list[SessionEntry]) -> Segment | None:
    """The session's tool uses in order, with the first request (None without any turn)."""
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    uses: list[ToolUse] = []
    request = ""
    for entry in entries:
        message = entry.message
        if isinstance(message, UserMessage) and not request:
            request = message.content
        elif isinstance(message, AssistantMessage):
            for call in message.tool_calls:
                calls[call.id] = (call.name, call.arguments)
        elif isinstance(message, ToolResultMessage) and message.tool_call_id in calls:
            name, args = calls[message.tool_call_id]
            uses.append(ToolUse(name, args, message.is_error))
    if not entries:
        return None
    return Segment(entries[0].turn, entries[-1].turn, request, uses)
