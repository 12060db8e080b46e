"""Agent events: the whole API between a running turn and every front end (seed 004 table)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field

from jarvis.model_layer.messages import AssistantMessage, Usage


class AgentStart(BaseModel):
    type: Literal["agent_start"] = "agent_start"
    agent_name: str


class TurnStart(BaseModel):
    type: Literal["turn_start"] = "turn_start"
    turn: int


class MessageUpdate(BaseModel):
    type: Literal["message_update"] = "message_update"
    text_delta: str = ""
    thinking_delta: str = ""


class ToolExecutionStart(BaseModel):
    type: Literal["tool_execution_start"] = "tool_execution_start"
    tool_call_id: str
    tool_name: str
    args: dict[str, Any] = Field(default_factory=dict)


class ToolExecutionEnd(BaseModel):
    type: Literal["tool_execution_end"] = "tool_execution_end"
    tool_call_id: str
    tool_name: str
    is_error: bool = False
    result_preview: str = ""
    # The gate's decision, e.g. {"outcome": "deny", "reason": "timeout"}.
    decision: dict[str, Any] | None = None


class ToolProgress(BaseModel):
    """A long tool's progress report (MCP `notifications/progress`), shown while it runs."""

    type: Literal["tool_progress"] = "tool_progress"
    tool_call_id: str
    tool_name: str
    progress: float
    total: float | None = None
    message: str = ""


class AgentEnd(BaseModel):
    type: Literal["agent_end"] = "agent_end"
    final_message: AssistantMessage | None = None
    turns: int = 0
    overflows: int = 0
    usage: Usage = Field(default_factory=Usage)
    ended_by: str = "answer"


class AgentError(BaseModel):
    type: Literal["agent_error"] = "agent_error"
    message: str
    kind: str = "other"


AgentEvent = (
    AgentStart
    | TurnStart
    | MessageUpdate
    | ToolExecutionStart
    | ToolExecutionEnd
    | ToolProgress
    | AgentEnd
    | AgentError
)

# Higher layers add their own event models (approval_request, agenda_changed, …); a sink takes
# any of them. Every event model has a `type` field.
EventSink = Callable[[BaseModel], None]
