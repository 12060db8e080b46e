"""The two lanes of one model server: background calls are capped, wait for the person's
calls, and give way (closed, `preempted`) when one starts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from jarvis.model_layer import LLMContext, ProviderError, Stop, StreamOptions, TextDelta
from jarvis.model_layer.events import StreamEvent
from jarvis.model_layer.lanes import BackgroundProvider, ForegroundProvider, ModelLane
from jarvis.model_layer.provider import Provider

CTX = LLMContext(system_prompt="s")


class Gated(Provider):
    """Streams one token, then waits for `go` before finishing; records what it was asked."""

    def __init__(self) -> None:
        self.options: list[StreamOptions | None] = []
        self.started = asyncio.Event()
        self.go = asyncio.Event()
        self.closed = 0

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        self.options.append(options)
        self.started.set()
        try:
            yield TextDelta(delta="a")
            await self.go.wait()
            yield Stop()
        finally:
            self.closed += 1


async def collect(stream: AsyncIterator[StreamEvent]) -> list[StreamEvent]:
    return [event async for event in stream]


async def test_background_calls_are_capped_by_the_setting_or_smaller() -> None:
    inner = Gated()
    inner.go.set()
    background = BackgroundProvider(inner, ModelLane(), max_tokens=64)
    await collect(background.stream("m", CTX))
    await collect(background.stream("m", CTX, StreamOptions(max_tokens=8, temperature=0.0)))
    await collect(background.stream("m", CTX, StreamOptions(max_tokens=4096)))
    caps = [o.max_tokens if o else None for o in inner.options]
    assert caps == [64, 8, 64]
    assert inner.options[1] is not None and inner.options[1].temperature == 0.0


async def test_the_persons_call_closes_a_running_background_call() -> None:
    lane, slow, fast = ModelLane(), Gated(), Gated()
    fast.go.set()
    job = asyncio.create_task(collect(BackgroundProvider(slow, lane, 64).stream("m", CTX)))
    await slow.started.wait()
    turn = await collect(ForegroundProvider(fast, lane).stream("m", CTX))
    events = await job
    assert isinstance(turn[-1], Stop)
    assert [type(e) for e in events] == [TextDelta, ProviderError]
    assert isinstance(events[-1], ProviderError) and events[-1].kind == "preempted"
    assert slow.closed == 1 and lane.preempted == 1 and not lane.busy


async def test_a_background_call_waits_while_the_person_is_served() -> None:
    lane, person, job_model = ModelLane(), Gated(), Gated()
    job_model.go.set()
    turn = ForegroundProvider(person, lane).stream("m", CTX)
    assert isinstance(await anext(turn), TextDelta)  # the person's call is streaming
    job = asyncio.create_task(collect(BackgroundProvider(job_model, lane, 64).stream("m", CTX)))
    await asyncio.sleep(0)  # let the job run up to its wait
    assert not job_model.started.is_set() and lane.busy
    person.go.set()
    assert isinstance(await anext(turn), Stop)  # the last event frees the lane at once
    assert not lane.busy
    events = await job
    assert isinstance(events[-1], Stop) and job_model.options[0] is not None
    await turn.aclose()


async def test_a_hosted_api_runs_background_calls_beside_the_persons() -> None:
    lane, slow, fast = ModelLane(yielding=False), Gated(), Gated()
    fast.go.set()
    job = asyncio.create_task(collect(BackgroundProvider(slow, lane, 64).stream("m", CTX)))
    await slow.started.wait()
    await collect(ForegroundProvider(fast, lane).stream("m", CTX))
    slow.go.set()
    events = await job
    assert isinstance(events[-1], Stop) and lane.preempted == 0
    assert slow.options[0] is not None and slow.options[0].max_tokens == 64  # still capped


async def test_background_calls_run_one_at_a_time_on_a_yielding_lane() -> None:
    """On a one-slot server a second background request would queue inside the server behind
    the first one and could reach the model timeout there: the lane holds it back instead."""
    lane, first, second = ModelLane(), Gated(), Gated()
    second.go.set()
    one = asyncio.create_task(collect(BackgroundProvider(first, lane, 64).stream("m", CTX)))
    await first.started.wait()
    two = asyncio.create_task(collect(BackgroundProvider(second, lane, 64).stream("m", CTX)))
    await asyncio.sleep(0)  # let the second call reach the lane
    for _ in range(5):
        await asyncio.sleep(0)
    assert not second.started.is_set() and lane.background == 1
    first.go.set()
    assert isinstance((await one)[-1], Stop)
    assert isinstance((await two)[-1], Stop)
    assert lane.finished == 2 and lane.background == 0


async def test_a_caller_that_stops_at_the_last_event_frees_the_lane() -> None:
    lane, inner = ModelLane(), Gated()
    inner.go.set()
    async for event in BackgroundProvider(inner, lane, 64).stream("m", CTX):
        if isinstance(event, Stop):
            break  # not read to its end, not closed
    assert lane.background == 0
    nxt = Gated()
    nxt.go.set()
    assert isinstance((await collect(BackgroundProvider(nxt, lane, 64).stream("m", CTX)))[-1], Stop)


async def test_a_hosted_api_lane_runs_background_calls_side_by_side() -> None:
    lane, first, second = ModelLane(yielding=False), Gated(), Gated()
    one = asyncio.create_task(collect(BackgroundProvider(first, lane, 64).stream("m", CTX)))
    two = asyncio.create_task(collect(BackgroundProvider(second, lane, 64).stream("m", CTX)))
    await first.started.wait()
    await second.started.wait()
    assert lane.background == 2
    first.go.set()
    second.go.set()
    await asyncio.gather(one, two)


async def test_a_background_call_waits_for_the_whole_turn_not_each_model_call() -> None:
    """Between two model rounds of one turn (a tool runs, a thought ends) the lane is held:
    a retried judge does not start there only to be cut at the next round."""
    lane, quick, judge = ModelLane(), Gated(), Gated()
    quick.go.set()
    judge.go.set()
    with lane.holding():
        await collect(ForegroundProvider(quick, lane).stream("m", CTX))  # the first round
        waiting = asyncio.create_task(collect(BackgroundProvider(judge, lane, 64).stream("m", CTX)))
        for _ in range(5):
            await asyncio.sleep(0)  # the tool runs; the judge must not start
        assert not judge.started.is_set() and lane.busy
        await collect(ForegroundProvider(quick, lane).stream("m", CTX))  # the second round
        assert not judge.started.is_set()
    assert isinstance((await waiting)[-1], Stop)
    assert lane.preempted == 0 and lane.finished == 1
