"""A promise said before two quick messages on a one-slot server still becomes an AGENDA item.

The judge of the first message gives way to the second message's call, asks again once that is
done, and gives way again to the third: before, it gave up after its second try and the promise
was lost; now it asks again after each of the person's calls until it gets through.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from jarvis.agent_layer.openloop.judge import JUDGE_MARKER
from tests.support.live_server import LiveServer, Tab, quiet_settings, serving
from tests.support.scripted_http import Received, Scripted, ScriptedServer, sse

PROMISE = "I'll send the report to Mina by Friday 10am."
JUDGED = "send the report to Mina @2026-12-11 10:00 (evidence: I'll send the report to Mina)"


def chunk(content: str, finish: str | None = None) -> dict[str, Any]:
    delta = {"role": "assistant", "content": content}
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def is_judge(request: Received) -> bool:
    messages = request.body.get("messages", [])
    return bool(messages) and str(messages[0].get("content", "")).startswith(JUDGE_MARKER)


def judges_promise(request: Received) -> bool:
    return is_judge(request) and "Mina" in str(request.body["messages"][-1]["content"])


class Model:
    """Turns answer at once. The promise's judge stalls (a slow CPU model) on its first two
    calls, so each is still running when the next message comes; its third call answers. The
    other messages' judges answer `none` at once."""

    def __init__(self) -> None:
        self.promise_calls = 0

    def __call__(self, request: Received) -> Scripted:
        if not is_judge(request):
            return Scripted(chunks=sse(chunk("ok"), chunk("", "stop"), "[DONE]"))
        if not judges_promise(request):
            return Scripted(chunks=sse(chunk("none"), chunk("", "stop"), "[DONE]"))
        self.promise_calls += 1
        if self.promise_calls <= 2:
            # If the hold ran out (a hang guard), the judge would find nothing: the test fails.
            tail = sse(chunk("", "stop"), "[DONE]")
            return Scripted(chunks=sse(chunk("no")), hold=True, tail=tail, hold_sec=120)
        return Scripted(chunks=sse(chunk(JUDGED), chunk("", "stop"), "[DONE]"))


@pytest.fixture
def one_slot() -> Iterator[ScriptedServer]:
    with ScriptedServer(one_slot=True, responder=Model()) as server:
        yield server


@pytest.fixture
def jarvis(one_slot: ScriptedServer, tmp_path: Path) -> Iterator[LiveServer]:
    model = {
        "provider": "openai",
        "base_url": f"{one_slot.url}/v1",
        "model": "local",
        "max_retries": 0,
        "context_window": 8192,
        "background_max_tokens": 64,
    }
    config = quiet_settings(
        tmp_path, model, language="en", timezone="UTC", memory={"enabled": False}
    )
    with serving(config) as server:
        yield server


def promise_calls_served(server: ScriptedServer) -> int:
    held = [i for i, r in enumerate(server.received) if judges_promise(r)]
    return sum(("served", i) in server.log for i in held)


async def turn(tab: Tab, text: str) -> None:
    await tab.send(type="prompt", text=text)
    end = await tab.next(("agent_end", "agent_error"))
    assert end["type"] == "agent_end", end


async def test_a_promise_before_two_quick_messages_reaches_the_agenda(
    jarvis: LiveServer, one_slot: ScriptedServer
) -> None:
    tab = await Tab.open(jarvis.ws_url())
    await tab.next("session")
    await turn(tab, PROMISE)
    # The promise's judge holds the only slot; the next message makes it give way.
    assert await asyncio.to_thread(one_slot.wait_for, lambda: promise_calls_served(one_slot) == 1)
    await turn(tab, "what time is it?")
    # It asked again after that turn and holds the slot again; a third message comes.
    assert await asyncio.to_thread(one_slot.wait_for, lambda: promise_calls_served(one_slot) == 2)
    await turn(tab, "thanks")

    changed = await tab.next("agenda_changed")
    assert changed["created"] == 1, changed
    async with httpx.AsyncClient(base_url=jarvis.url, headers=jarvis.headers) as http:
        view = (await http.get("/api/agenda")).json()
    (item,) = view["open"]
    assert item["description"] == "send the report to Mina", item
    # Each held call was closed by Jarvis (given way), then asked again: three calls in all.
    held = [i for i, r in enumerate(one_slot.received) if judges_promise(r)]
    assert len(held) == 3 and all(("closed", i) in one_slot.log for i in held[:2]), one_slot.log
    await tab.close()
