"""A connection's outbox: streamed text that piled up goes out merged, in order; other events
keep their place; what was queued before the close still goes out, nothing after."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from jarvis.ui.web.broker import Connection


def update(text: str = "", thinking: str = "") -> dict[str, str]:
    return {"type": "message_update", "text_delta": text, "thinking_delta": thinking}


def taken(connection: Connection) -> list[Any] | None:
    frames = asyncio.run(connection.frames())
    return None if frames is None else [json.loads(text) for text in frames]


def test_adjacent_updates_merge_and_other_events_keep_their_place() -> None:
    connection = Connection("u")
    for message in (
        update("he"),
        update("llo", "hm"),
        {"type": "tool_execution_start", "tool_name": "bash"},
        update(" wor"),
        json.dumps({"type": "turn_start", "turn": 2}),  # an event dumped once for every tab
        update("ld"),
        update("!"),
        {"type": "agent_end"},
    ):
        connection.send(message)
    assert taken(connection) == [
        update("hello", "hm"),
        {"type": "tool_execution_start", "tool_name": "bash"},
        update(" wor"),
        {"type": "turn_start", "turn": 2},
        update("ld!"),
        {"type": "agent_end"},
    ]


def test_a_lone_update_goes_out_as_it_is() -> None:
    connection = Connection("u")
    connection.send({**update("x"), "extra": 1})
    assert taken(connection) == [{**update("x"), "extra": 1}]


def test_the_writer_waits_for_something_to_send() -> None:
    async def scenario() -> list[str] | None:
        connection = Connection("u")
        waiting = asyncio.create_task(connection.frames())
        await asyncio.sleep(0)
        assert not waiting.done()
        connection.send(update("a"))
        connection.send(update("b"))  # before the writer ran: same frame
        return await waiting

    assert asyncio.run(scenario()) == [json.dumps(update("ab"), separators=(",", ":"))]


def test_what_was_queued_before_the_close_goes_out_then_nothing() -> None:
    connection = Connection("u")
    connection.send({"type": "agent_end"})
    connection.close()
    connection.send({"type": "late"})
    assert taken(connection) == [{"type": "agent_end"}]
    assert taken(connection) is None


def test_chunks_from_a_session_merge_with_queued_updates_in_order() -> None:
    connection = Connection("u")
    connection.update("he", "")
    connection.send(update("ll", "hm"))
    connection.update("o", "!")
    connection.send({"type": "agent_end"})
    connection.update("x", "")
    assert taken(connection) == [update("hello", "hm!"), {"type": "agent_end"}, update("x")]
