"""How a turn ends: exactly one closing event (`agent_end` or `agent_error`) for every started
turn, sent only once the turn is stored."""

from __future__ import annotations

from pydantic import BaseModel

from jarvis.agent_layer.events import AgentEnd, AgentError, EventSink


class TurnEnding:
    """Holds the loop's closing event until the turn is stored, and makes sure exactly one
    closing event (`agent_end` or `agent_error`) leaves for every started turn."""

    def __init__(self, emit: EventSink) -> None:
        self._emit = emit
        self._held: BaseModel | None = None
        self.settled = False

    def hold(self, event: BaseModel) -> None:
        if isinstance(event, AgentEnd | AgentError):
            # The loop reports a model failure as agent_error then agent_end: keep the error.
            if not isinstance(self._held, AgentError):
                self._held = event
            return
        self._emit(event)

    def release(self) -> None:
        if self._held is not None:
            self._send(self._held)

    def fail(self, error: AgentError) -> None:
        self._send(error)

    def close(self) -> None:
        """Anything still unsaid when the turn leaves (a cancelled task) is said now."""
        if not self.settled:
            self._send(self._held or AgentEnd(ended_by="aborted"))

    def _send(self, event: BaseModel) -> None:
        if not self.settled:
            self.settled = True
            self._emit(event)
