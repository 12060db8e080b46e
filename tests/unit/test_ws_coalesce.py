"""Streamed text that piled up in a connection's outbox goes out merged, in order."""

from __future__ import annotations

from jarvis.ui.web.ws_connection import coalesce_updates


def update(text: str = "", thinking: str = "") -> dict[str, str]:
    return {"type": "message_update", "text_delta": text, "thinking_delta": thinking}


def test_adjacent_updates_merge_and_other_events_keep_their_place() -> None:
    batch = [
        update("he"),
        update("llo", "hm"),
        {"type": "tool_execution_start", "tool_name": "bash"},
        update(" wor"),
        update("ld"),
        {"type": "agent_end"},
    ]
    assert coalesce_updates(batch) == [
        update("hello", "hm"),
        {"type": "tool_execution_start", "tool_name": "bash"},
        update(" world"),
        {"type": "agent_end"},
    ]


def test_a_lone_event_is_sent_as_it_is() -> None:
    assert coalesce_updates([update("x")]) == [update("x")]
    assert coalesce_updates([]) == []
