"""Awaiting a turn's work (a model call, a batch of tools) unless the turn is stopped first.

The work runs in the caller's task: one watcher task waits on the abort signal and, if it
fires first, cancels the caller — which cancels what it awaits (the model's stream, the
gathered tools), waits for them to finish, and surfaces here as `Aborted`. (Running the work
as a task of its own raced by `asyncio.wait` cost two tasks and a wait on every model call.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

_T = TypeVar("_T")


class Aborted(Exception):
    """The turn was stopped (Stop, its deadline) while the work ran; the work was cancelled."""


async def unless_aborted(
    work: Coroutine[Any, Any, _T] | asyncio.Future[_T], abort: asyncio.Event
) -> _T:
    """`work`'s result, or `Aborted` once `abort` is set first (the work cancelled and
    finished before this returns)."""
    # One step to what the turn started beside it (background jobs), as a task of its own did.
    await asyncio.sleep(0)
    caller = asyncio.current_task()
    if caller is None or abort.is_set():
        return await _raced(work, abort)
    fired = over = False

    def stop(watcher: asyncio.Future[Any]) -> None:
        nonlocal fired
        # `over`: the callback may already be queued when the work ends; it must not fire then.
        if not over and not watcher.cancelled():
            fired = True
            caller.cancel()

    watcher = asyncio.ensure_future(abort.wait())
    watcher.add_done_callback(stop)
    try:
        result = await work
    except asyncio.CancelledError:
        if fired and caller.uncancel() == 0:  # this cancel, and nobody else's
            raise Aborted from None
        raise
    finally:
        over = True
        watcher.cancel()
    if fired:  # the work finished in spite of the cancel: the turn is stopped all the same
        caller.uncancel()
        raise Aborted
    return result


async def _raced(work: Coroutine[Any, Any, _T] | asyncio.Future[_T], abort: asyncio.Event) -> _T:
    """The same as its own task raced against the signal (already set, or no task to cancel)."""
    task = asyncio.ensure_future(work)
    waiting = asyncio.ensure_future(abort.wait())
    try:
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
    if task.done():
        return task.result()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    raise Aborted
