"""The person's turn goes first: one model server's calls in two lanes.

A local server (llama.cpp, Ollama) often has one slot: a request waits until the one before it
is done. A background call (the AGENDA judge, reflection, distillation) that streams after a
reply would hold the slot while the person's next message queues behind it, so:

- a background call waits while any call of the person's (a turn, its sub-agents, an answer in
  words) is running on the same server, and asks for at most `max_tokens` tokens;
- a call of the person's that starts while background calls run cancels them: their request is
  closed (the server stops generating) and their stream ends with a `ProviderError` of kind
  `preempted`, which the caller may ask again later (it then waits for the person's call);
- background calls run one at a time: on a one-slot server a second one would queue inside the
  server behind the first and could reach the model timeout there (seen with llama.cpp: two
  AGENDA judges after two quick messages, the second failed after 120 s in the queue).

One `ModelLane` per server; `foreground` and `background` wrap the same provider. A hosted API
serves many calls at once: there background calls are only capped (`yielding=False`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Iterator

from jarvis.model_layer.config import StreamOptions
from jarvis.model_layer.events import ProviderError, Stop, StreamEvent
from jarvis.model_layer.messages import LLMContext
from jarvis.model_layer.provider import Provider


class ModelLane:
    """Who is using one model server: the person's calls running, background calls to stop."""

    def __init__(self, *, yielding: bool = True) -> None:
        self.yielding = yielding
        self._foreground = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._running: set[asyncio.Event] = set()  # each running background call's stop signal
        self._one = asyncio.Lock()  # background calls one at a time (yielding lanes)
        self.preempted = 0  # background calls cancelled for the person (logs, tests)
        self.finished = 0  # background calls that ran to their end (logs, tests)

    @property
    def busy(self) -> bool:
        return self._foreground > 0

    @property
    def background(self) -> int:
        """Background calls running now (started after `wait_idle`, not yet ended)."""
        return len(self._running)

    def enter_foreground(self) -> None:
        self._foreground += 1
        self._idle.clear()
        if self.yielding:
            for stop in self._running:
                stop.set()

    def leave_foreground(self) -> None:
        self._foreground -= 1
        if self._foreground == 0:
            self._idle.set()

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """The person's whole turn (its thought, model rounds, tools, approvals): background
        calls wait for the turn, not only for each model call in it; a retried judge would
        otherwise start between two rounds and be cut again at once."""
        self.enter_foreground()
        try:
            yield
        finally:
            self.leave_foreground()

    async def wait_idle(self) -> None:
        while self.yielding and self._foreground:
            await self._idle.wait()

    async def enter_background(self) -> asyncio.Event:
        """Wait until no call of the person's runs and no other background call does (yielding
        lanes); the returned event is set when a call of the person's starts."""
        while self.yielding:
            await self.wait_idle()
            await self._one.acquire()
            if not self._foreground:
                break
            self._one.release()  # the person started while this call waited for the other one
        stop = asyncio.Event()
        self._running.add(stop)
        return stop

    def leave_background(self, stop: asyncio.Event) -> None:
        self._running.discard(stop)
        if self.yielding:
            self._one.release()


class ForegroundProvider(Provider):
    """The person's calls: they start at once and stop any background call on the server."""

    name = "foreground"

    def __init__(self, inner: Provider, lane: ModelLane) -> None:
        self.inner = inner
        self.lane = lane

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        self.lane.enter_foreground()
        running = True
        try:
            async for event in self.inner.stream(model, ctx, options):
                if isinstance(event, (Stop, ProviderError)):
                    # The last event: consumers stop reading here without closing the stream.
                    self.lane.leave_foreground()
                    running = False
                yield event
        finally:
            if running:
                self.lane.leave_foreground()


class BackgroundProvider(Provider):
    """Work nobody waits for: capped, started only when the person's calls are done, and
    cancelled when one starts."""

    name = "background"

    def __init__(self, inner: Provider, lane: ModelLane, max_tokens: int) -> None:
        self.inner = inner
        self.lane = lane
        self.max_tokens = max_tokens

    def capped(self, options: StreamOptions | None) -> StreamOptions:
        options = options or StreamOptions()
        wanted = options.max_tokens
        limit = self.max_tokens if wanted is None else min(wanted, self.max_tokens)
        return options.model_copy(update={"max_tokens": limit})

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        stop = await self.lane.enter_background()
        source = self.inner.stream(model, ctx, self.capped(options))
        stopped = asyncio.ensure_future(stop.wait())
        left = False

        def leave() -> None:  # before a last event too: a caller may stop reading there
            nonlocal left
            if not left:
                left = True
                stopped.cancel()
                self.lane.leave_background(stop)

        try:
            while True:
                step = asyncio.ensure_future(_next(source))
                await asyncio.wait({step, stopped}, return_when=asyncio.FIRST_COMPLETED)
                if not step.done():  # the person's call started: close this request now
                    step.cancel()
                    with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                        await step
                    self.lane.preempted += 1
                    leave()
                    yield ProviderError(
                        message="a background model call gave way to the person's turn",
                        kind="preempted",
                    )
                    return
                event = step.result()
                if event is None:
                    self.lane.finished += 0 if left else 1  # a stream without a last event
                    return
                if isinstance(event, (Stop, ProviderError)):
                    self.lane.finished += 1
                    leave()
                yield event
        finally:
            leave()
            if isinstance(source, AsyncGenerator):
                await source.aclose()


async def _next(source: AsyncIterator[StreamEvent]) -> StreamEvent | None:
    try:
        return await anext(source)
    except StopAsyncIteration:
        return None
