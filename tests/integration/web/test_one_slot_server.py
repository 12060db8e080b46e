"""A one-slot local model server (llama.cpp with one slot): the person's turn goes first.

Before, the AGENDA judge streamed after the reply with no token cap, holding the server's only
slot; the person's next message queued behind it and failed after the model timeout. Now a
background call asks for at most `background_max_tokens`, and the person's next model call
closes it (the server stops generating) before its own request is served; the judge asks again
once that call is done, so its promise is not lost.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jarvis.agent_layer.openloop.judge import JUDGE_MARKER
from tests.support.live_server import LiveServer, Tab, quiet_settings, serving
from tests.support.scripted_http import Received, Scripted, ScriptedServer, sse

BACKGROUND_CAP = 48


def chunk(content: str, finish: str | None = None) -> dict[str, Any]:
    delta = {"role": "assistant", "content": content}
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def is_judge(request: Received) -> bool:
    messages = request.body.get("messages", [])
    return bool(messages) and str(messages[0].get("content", "")).startswith(JUDGE_MARKER)


class Model:
    """Answers turns at once; the first judge call streams one token and then stalls (a slow
    CPU model), later judge calls answer `none` at once."""

    def __init__(self) -> None:
        self.judge_calls = 0

    def __call__(self, request: Received) -> Scripted:
        if not is_judge(request):
            asked = str(request.body["messages"][-1]["content"])
            answer = "second answer" if "second" in asked else "first answer"
            return Scripted(chunks=sse(chunk(answer), chunk("", "stop"), "[DONE]"))
        self.judge_calls += 1
        if self.judge_calls == 1:
            finish = sse(chunk("", "stop"), "[DONE]")
            return Scripted(chunks=sse(chunk("none")), hold=True, tail=finish, hold_sec=30)
        return Scripted(chunks=sse(chunk("none"), chunk("", "stop"), "[DONE]"))


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
        "background_max_tokens": BACKGROUND_CAP,
    }
    config = quiet_settings(tmp_path, model, language="en", memory={"enabled": False})
    with serving(config) as server:
        yield server


def first(log: list[tuple[str, int]], what: str, index: int) -> int:
    return log.index((what, index))


async def test_the_next_message_goes_before_a_background_call(
    jarvis: LiveServer, one_slot: ScriptedServer
) -> None:
    tab = await Tab.open(jarvis.ws_url())
    await tab.next("session")
    # Words with a cue of something to do later: the judge is asked (see openloop.cues).
    await tab.send(type="prompt", text="hello, I'll call Mina tomorrow")
    await tab.next("agent_end")
    # The judge runs after the reply (a local server) and now holds the only slot.
    held = await asyncio.to_thread(
        one_slot.wait_for, lambda: any(is_judge(r) for r in one_slot.received)
    )
    assert held
    judge = next(i for i, r in enumerate(one_slot.received) if is_judge(r))
    assert await asyncio.to_thread(one_slot.wait_for, lambda: ("served", judge) in one_slot.log)

    await tab.send(type="prompt", text="second message: I need to pay the rent")
    end = await tab.next(("agent_end", "agent_error"))
    assert end["type"] == "agent_end", end
    assert end["final_message"]["content"] == "second answer"

    second = next(
        i
        for i, r in enumerate(one_slot.received)
        if not is_judge(r) and "second" in json.dumps(r.body["messages"][-1])
    )
    log = list(one_slot.log)
    # The judge's request was closed by Jarvis before the person's request got the slot.
    assert ("closed", judge) in log, log
    assert first(log, "closed", judge) < first(log, "served", second), log
    assert one_slot.received[judge].body["max_tokens"] == BACKGROUND_CAP
    assert one_slot.received[second].body["max_tokens"] == 2048  # the turn keeps its own cap

    # The judge asks again once the person's call is done (its promise is not lost), and the
    # second turn's judge runs too; every judge call is capped.
    assert await asyncio.to_thread(
        one_slot.wait_for,
        lambda: sum(("done", i) in one_slot.log for i in judge_requests(one_slot)) >= 3,
    )
    retry = judge_requests(one_slot)[1]
    assert first(one_slot.log, "served", retry) > first(one_slot.log, "served", second)
    assert {one_slot.received[i].body["max_tokens"] for i in judge_requests(one_slot)} == {
        BACKGROUND_CAP
    }
    await tab.close()


def judge_requests(server: ScriptedServer) -> list[int]:
    return [i for i, r in enumerate(server.received) if is_judge(r)]
