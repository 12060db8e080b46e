"""Awaiting a turn's work (a model call, a batch of tools) unless the turn is stopped first."""

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
