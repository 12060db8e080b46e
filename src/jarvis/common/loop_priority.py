"""Waking a waiter ahead of the event loop's queue: `wake_first(future)`.

`future.set_result(None)` queues the waiting task at the end of the loop's ready queue: on a
server saturated by many sessions it runs only after every callback queued before it — a whole
loop step of every session's work. For the few wake-ups a person waits on (an approval answer
→ its tool starting), `wake_first` moves what resolving the future queued to the front, so the
waiting task runs right after the current callback, in the same step.

It uses the default asyncio loop's queue (`_ready`, a deque); on a loop without one it is a
plain `set_result` (the waiter then runs in the next step, as asyncio does it).
"""

from __future__ import annotations

import asyncio
from collections import deque


def wake_first(future: asyncio.Future[None]) -> None:
    """Resolve `future` (if not done) and run its waiters before anything else that is queued."""
    if future.done():
        return
    ready = getattr(future.get_loop(), "_ready", None)
    if not isinstance(ready, deque):
        future.set_result(None)
        return
    before = len(ready)
    future.set_result(None)
    ready.rotate(len(ready) - before)  # the callbacks just queued, in their order, first
