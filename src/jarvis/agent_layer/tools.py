"""What the loop knows about tools: specs to show the model, a mode, and one execute seam.

The loop never decides whether a call may run; core's gated executor does, and reports the
outcome on the `ToolResult` (a human or timeout denial ends the round by code).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from jarvis.agent_layer.events import EventSink
from jarvis.common.i18n import Language
from jarvis.model_layer.messages import ImagePart, ToolCall, ToolSpec

Denial = Literal["user_deny", "timeout"]
ExecutionMode = Literal["parallel", "sequential"]


@dataclass
class ToolResult:
    content: str
    is_error: bool = False
    # A non-error `final` result ends the turn with its text (when the whole round is final).
    final: bool = False
    # Set when a human denied the call or nobody answered in time.
    denial: Denial | None = None
    details: dict[str, Any] = field(default_factory=dict)
    # Images for the model (providers that take no images see only the text's note).
    images: list[ImagePart] = field(default_factory=list)


@dataclass
class ToolCallContext:
    """Per-call facts a tool or the gate may need."""

    session_id: str
    agent_id: str
    turn: int
    abort: asyncio.Event
    user_id: str = "local"
    # Who is acting, outermost first: ("main",), ("main", "planner") for a sub-agent, ("main",
    # "karen") when KAREN answers JARVIS's ask_agent. Empty means (agent_id,).
    agent_path: tuple[str, ...] = ()
    # The top-level agents that asked this one with ask_agent, outermost first: ("main",) when
    # KAREN answers JARVIS. Their rules count too: standing consent is never spent by asking.
    asked_by: tuple[str, ...] = ()
    # The session's event sink: work a tool starts (a sub-agent) shows up nested under it, and
    # a running tool reports progress there. None: nobody listens.
    emit: EventSink | None = None
    # Nobody watches this run (schedules, goals): approval-requiring tools are never offered.
    unattended: bool = False
    # The person's language (their page or terminal): the lines the gate, sub-agents and tools
    # write for them. None: the server's language (`speaks`).
    language: Language | None = None

    @property
    def path(self) -> tuple[str, ...]:
        return self.agent_path or (self.agent_id,)

    def speaks(self, default: Language) -> Language:
        """The person's language, else `default` (the server's)."""
        return self.language or default


class LoopTools(Protocol):
    """The tool surface one loop run sees (re-read from the registry every turn)."""

    def specs(self) -> list[ToolSpec]: ...

    def execution_mode(self, name: str) -> ExecutionMode: ...

    async def execute(self, call: ToolCall, ctx: ToolCallContext) -> ToolResult: ...


class NoTools:
    """A tool surface with nothing on it."""

    def specs(self) -> list[ToolSpec]:
        return []

    def execution_mode(self, name: str) -> ExecutionMode:
        return "parallel"

    async def execute(self, call: ToolCall, ctx: ToolCallContext) -> ToolResult:
        return ToolResult(content=f"unknown tool: {call.name}", is_error=True)
