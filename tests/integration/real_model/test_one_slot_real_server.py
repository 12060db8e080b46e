"""A one-slot llama.cpp server (xllamacpp, SmolLM2): the person's next message is answered while
a background call (the AGENDA judge after the reply) holds the server's only slot.

The scripted twin is `tests/integration/web/test_one_slot_server.py`; this one runs the real
server, whose one slot serves one request at a time: a request sent while another generates
waits until that one ends or its connection is closed. The server ignores end-of-sequence, so
every call generates exactly its `max_tokens`: the judge's call is long by construction (a slow
CPU model writing to its cap), the turn's is short. Judged by event order
and completion, never by wall-clock figures: the judge is seen generating on the server, then
the person's message goes in; its answer streams only after the judge's request was closed
(`preempted`), the turn ends normally, and the judge asks again after it and runs to its end.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from jarvis.model_layer.lanes import ModelLane
from tests.integration.real_model.conftest import RealModel, real_model_server, served_by
from tests.support.live_server import LiveServer, Tab, quiet_settings, serving

JUDGE_CAP = 256  # the judge's tokens (the background cap); the turn asks for TURN_TOKENS
TURN_TOKENS = 16
WAIT_SEC = 300.0  # a hang guard for a CPU-only model on a shared machine, not a measurement
pytestmark = pytest.mark.timeout(1200)


@pytest.fixture(scope="module")
def one_slot() -> Iterator[RealModel]:
    with real_model_server(slots=1, n_predict=-1, ignore_eos=True) as model:
        yield model


@pytest.fixture
def jarvis(one_slot: RealModel, tmp_path: Path) -> Iterator[LiveServer]:
    model = served_by(
        one_slot, max_tokens=TURN_TOKENS, context_window=4096, background_max_tokens=JUDGE_CAP
    )
    with serving(quiet_settings(tmp_path, model, language="en", memory={"enabled": False})) as s:
        yield s


async def until(check: Callable[[], Any], what: str) -> None:
    """Wait for a condition that other threads change (the server's loop, the model server)."""
    async with asyncio.timeout(WAIT_SEC):
        while not await _value(check):
            await asyncio.sleep(0.05)
    assert await _value(check), what


async def _value(check: Callable[[], Any]) -> Any:
    result = check()
    return await result if asyncio.iscoroutine(result) else result


async def next_event(tab: Tab) -> dict[str, Any]:
    if tab.events:
        return tab.events.pop(0)
    async with asyncio.timeout(WAIT_SEC):
        event: dict[str, Any] = json.loads(await tab.ws.recv())
    return event


async def test_the_next_message_goes_before_the_judge_on_a_real_one_slot_server(
    jarvis: LiveServer, one_slot: RealModel
) -> None:
    lane: ModelLane = jarvis.assembly.lane_for(jarvis.assembly.settings.model)
    assert lane.yielding  # a server on 127.0.0.1 is a local one
    server = httpx.AsyncClient(base_url=f"http://127.0.0.1:{one_slot.port}")

    async def slot_generating() -> bool:
        (slot,) = (await server.get("/slots")).json()
        return bool(slot["is_processing"])

    tab = await Tab.open(jarvis.ws_url())
    await tab.next("session")
    await tab.send(type="prompt", text="Hello! I'll send the report to Mina by Friday 10am.")
    first = await tab.next(("agent_end", "agent_error"), timeout=WAIT_SEC)
    assert first["type"] == "agent_end", first

    # 1. The judge runs after the reply and holds the only slot: a background call is running,
    #    no call of the person's is, and the server's one slot is generating.
    await until(lambda: lane.background == 1 and not lane.busy, "the judge started")
    await until(slot_generating, "the judge's request is on the server")
    assert lane.preempted == 0 and lane.finished == 0

    # 2. The person's next message: its first token comes after the judge's request was closed.
    tab.events.clear()  # the first turn's events, read on the way to its agent_end
    # A cue of something to do later, so this turn's judge is asked too (openloop.cues).
    await tab.send(type="prompt", text="What is two plus two? I need to know it tomorrow.")
    at_first_token: tuple[int, int] | None = None  # (preempted, finished) when it streamed
    while True:
        event = await next_event(tab)
        streamed = event["type"] == "message_update" and event.get("text_delta")
        if streamed and at_first_token is None:
            at_first_token = (lane.preempted, lane.finished)
        if event["type"] in ("agent_end", "agent_error"):
            break
    assert event["type"] == "agent_end", event
    assert event["final_message"]["content"].strip()
    # The judge's request was closed before the answer streamed, and it had not run to its
    # end: its tokens were cut, not waited for.
    assert at_first_token == (1, 0), at_first_token

    # 3. Completion: the cut judge asks again after the turn, and the second turn's judge runs
    #    too; both reach their end (no promise is lost to the give-way).
    await until(lambda: lane.finished >= 2 and lane.background == 0, "both judges finished")
    assert lane.preempted == 1
    await server.aclose()
    await tab.close()
