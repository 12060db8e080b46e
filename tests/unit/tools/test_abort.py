"""`until_done`: a result, an abort or a timeout, and the work cancelled either way."""

from __future__ import annotations

import asyncio

import pytest

from jarvis.core.tools.builtins._abort import Aborted, until_done


async def test_returns_the_result() -> None:
    async def work() -> int:
        return 42

    assert await until_done(work(), asyncio.Event(), 1.0) == 42


async def test_the_work_raising_propagates() -> None:
    async def work() -> int:
        raise ValueError("bad")

    with pytest.raises(ValueError, match="bad"):
        await until_done(work(), asyncio.Event(), 1.0)


async def test_abort_cancels_the_work() -> None:
    cancelled = asyncio.Event()
    abort = asyncio.Event()

    async def work() -> None:
        abort.set()  # abort once the work is under way, not after a guessed delay
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    with pytest.raises(Aborted):
        await until_done(work(), abort, 10.0)
    assert cancelled.is_set()


async def test_timeout_raises_timeout_error() -> None:
    with pytest.raises(TimeoutError):
        await until_done(asyncio.sleep(30), asyncio.Event(), 0.05)


async def test_an_aborted_turn_never_starts_the_work() -> None:
    started = False

    async def work() -> None:
        nonlocal started
        started = True

    abort = asyncio.Event()
    abort.set()
    with pytest.raises(Aborted):
        await until_done(work(), abort, 1.0)
    assert not started
