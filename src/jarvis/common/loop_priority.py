"""Running what a person waits on ahead of the event loop's queue: `run_first`, `wake_first`.

Resolving a future (a task waiting on it, a queue's reader) queues the waiting task at the end
of the loop's ready queue: on a server saturated by many sessions it runs only after every
callback queued before it — a whole loop step of every session's work. For the few wake-ups a
person waits on (an approval answer → its tool starting), `run_first(action)` moves what
`action` queued to the front, so the woken task runs right after the current callback, in the
same step.

It uses the default asyncio loop's queue (`_ready`, a deque); on a loop without one the action
just runs (its waiters then run in the next step, as asyncio does it).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def run_first(action: Callable[[], T]) -> T:
    """Run `action` (in a running loop); the callbacks it queued run before any queued before."""
    ready = getattr(asyncio.get_running_loop(), "_ready", None)
    if not isinstance(ready, deque):
        return action()
    before = len(ready)
    try:
        return action()
    finally:
        if (added := len(ready) - before) > 0:
            ready.rotate(added)  # the callbacks just queued, in their order, first


def wake_first(future: asyncio.Future[None]) -> None:
    """Resolve `future` (if not done) and run its waiters before anything else that is queued."""
    if not future.done():
        run_first(lambda: future.set_result(None))
