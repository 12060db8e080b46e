"""Events go to the wire dumped once per event, whatever the number of tabs, exactly as
`model_dump(mode="json")` gives them; the marks sink dumps only the events it reads."""

from __future__ import annotations

from pydantic import BaseModel

from jarvis.agent_layer.events import (
    AgentEnd,
    AgentError,
    AgentStart,
    MessageUpdate,
    ToolExecutionEnd,
    ToolExecutionStart,
    TurnStart,
)
from jarvis.ui.web.screen_marks import _MARKED, mark_for
from jarvis.ui.web.ws_connection import event_json

EVENTS: list[BaseModel] = [
    AgentStart(agent_name="JARVIS"),
    TurnStart(turn=1),
    MessageUpdate(text_delta="안녕 \u2028", thinking_delta="hm"),
    ToolExecutionStart(tool_call_id="c1", tool_name="bash", args={"command": "ls"}),
    ToolExecutionEnd(tool_call_id="c1", tool_name="bash", decision={"outcome": "aborted"}),
    AgentEnd(ended_by="aborted"),
    AgentError(message="boom", kind="model"),
]


def test_event_json_is_the_models_json_dump() -> None:
    for event in EVENTS:
        assert event_json(event) == event.model_dump(mode="json")


def test_one_event_is_dumped_once_for_every_tab() -> None:
    event = MessageUpdate(text_delta="a")
    assert event_json(event) is event_json(event)
    assert event_json(MessageUpdate(text_delta="a")) is not event_json(event)


def test_marks_come_only_from_the_types_the_sink_dumps() -> None:
    for event in EVENTS:
        data = event.model_dump(mode="json")
        started = {"c1": 0}
        if data["type"] not in _MARKED:
            assert mark_for(data, started, 1) is None and started == {"c1": 0}
