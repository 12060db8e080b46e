"""What a thought's decision makes the turn do besides the note (pure).

`start_focus`: the turn proposes a Focus task through the ordinary `focus` tool call, as its
first round — the gate then always asks the person (the tool is a standing action: no ALWAYS,
no rule approves it); denied, the turn ends by code with the fixed line and no model call;
allowed, the task is created and the model answers with the tool's result in view. Only when
the turn has the `focus` tool and a person to ask, and the thought is sure enough.
"""

from __future__ import annotations

from collections.abc import Collection

from jarvis.agent_layer.thought.engine import ThoughtFrame
from jarvis.core.focus.state import MAX_OBJECTIVE
from jarvis.model_layer.messages import ToolCall

FOCUS_TOOL = "focus"
MIN_CONFIDENCE = 0.5  # below it, `start_focus` stays a note: asking costs the person a click


def focus_proposal(
    frame: ThoughtFrame | None, text: str, tool_names: Collection[str], call_id: str
) -> ToolCall | None:
    """The `focus` call the thought asks for (its objective: the thought's interpretation of
    the request, else the request itself), or None."""
    if frame is None or frame.decision != "start_focus" or frame.confidence < MIN_CONFIDENCE:
        return None
    if FOCUS_TOOL not in tool_names:
        return None
    objective = " ".join(frame.interpretation.split()) or " ".join(text.split())
    if not objective:
        return None
    return ToolCall(id=call_id, name=FOCUS_TOOL, arguments={"objective": objective[:MAX_OBJECTIVE]})
