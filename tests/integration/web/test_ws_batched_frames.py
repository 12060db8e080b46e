"""`/ws?batch=1` (what the HUD asks for): events ready together come as one frame, a JSON array,
in the same order a tab reading one event per frame sees them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.live_server import HANG_GUARD_SEC, Tab, live_server


def bash(command: str) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


class BatchedTab(Tab):
    """A tab that asked for batched frames: each frame is an event or an array of them."""

    frames: list[Any]

    async def until(self, event_type: str) -> list[dict[str, Any]]:
        seen: list[dict[str, Any]] = []
        while not seen or seen[-1]["type"] != event_type:
            data = json.loads(await self.ws.recv())
            self.frames.append(data)
            batch = data if isinstance(data, list) else [data]
            assert batch and all(isinstance(event, dict) for event in batch)
            seen.extend(batch)
        return seen


def shape(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The events' types in order, a run of streamed text as one entry with its whole text
    (each tab's writer merges the chunks that piled up in its own outbox)."""
    out: list[tuple[str, str]] = []
    for event in events:
        if event["type"] == "message_update":
            if out and out[-1][0] == "message_update":
                out[-1] = ("message_update", out[-1][1] + event["text_delta"])
                continue
            out.append(("message_update", event["text_delta"]))
        elif event["type"] not in ("approval_answer",):  # the answer goes to its sender only
            out.append((event["type"], ""))
    return out


async def test_a_batched_tab_sees_the_same_events_in_the_same_order(tmp_path: Path) -> None:
    answer = "The command ran, and here is a longer answer streamed in many small chunks."
    with live_server(tmp_path, [bash("echo batched-frames"), answer]) as server:
        plain = await Tab.open(server.ws_url())
        session = (await plain.next("session"))["session"]["id"]
        batched = await BatchedTab.open(server.ws_url(session) + "&batch=1")
        batched.frames = []
        assert (await batched.until("session"))[-1]["session"]["id"] == session
        await plain.send(type="prompt", text="run it")
        asked = await batched.until("approval_request")
        await batched.send(type="approval", id=asked[-1]["id"], answer="allow")
        rest = await batched.until("agent_end")
        seen_plain = await plain.drain_until("agent_end", HANG_GUARD_SEC)
        seen_batched = [event for event in [*asked, *rest] if event["type"] != "session"]
        assert shape(seen_batched) == shape(seen_plain)
        assert ("message_update", answer) in shape(seen_batched)
        assert seen_batched[-1]["ended_by"] == "answer"
        await plain.close()
        await batched.close()
