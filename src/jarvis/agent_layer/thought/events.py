"""The thinking layer's events (seed 004 table; docs/protocol.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

Decision = Literal["answer", "clarify", "use_tools", "start_focus", "defer"]
ProactiveKind = Literal["filler", "proactive", "answer"]


class ThoughtRoute(BaseModel):
    """Sent for every prompt that passed validation: did the router buy thinking?"""

    type: Literal["thought_route"] = "thought_route"
    think: bool
    p_think: float
    reason: str = ""
    engine: Literal["off", "auto", "always"] = "off"


class InnerThought(BaseModel):
    """The thought frame the engine produced (never the answer, never stored in history)."""

    type: Literal["inner_thought"] = "inner_thought"
    interpretation: str
    decision: Decision
    confidence: float
    frame: str


class ThoughtEnd(BaseModel):
    """Every started thought ends with one of these, also on timeout, error, bad JSON and Stop."""

    type: Literal["thought_end"] = "thought_end"
    ok: bool
    reason: str = ""  # why it failed: timeout, provider_error, bad_output, aborted


class ProactiveMessage(BaseModel):
    """A line Jarvis says by itself: a filler while it works, a proactive remark, an answer."""

    type: Literal["proactive_message"] = "proactive_message"
    text: str
    kind: ProactiveKind
    message_id: str
