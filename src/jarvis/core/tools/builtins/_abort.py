"""Waiting on work that the user may abort or that may run out of time."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


class Aborted(Exception):
    """The user aborted the turn while a tool was waiting."""


async def until_done(work: Awaitable[T], abort: asyncio.Event, limit_sec: float | None) -> T:
    """The result of `work`; raises `Aborted` when `abort` is set first and `TimeoutError` when
    `limit_sec` seconds pass first. Either way `work` is cancelled."""
    if abort.is_set():
        if asyncio.iscoroutine(work):
            work.close()  # never started: close it so Python does not warn it was never awaited
        raise Aborted
    task = asyncio.ensure_future(work)
    stop = asyncio.ensure_future(abort.wait())
    try:
        done, _ = await asyncio.wait(
            {task, stop}, timeout=limit_sec, return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        stop.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    if task in done:
        return task.result()
    raise Aborted if abort.is_set() else TimeoutError
