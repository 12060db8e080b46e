"""`wake_first` / `run_first`: the woken task runs before everything that was already queued."""

from __future__ import annotations

import asyncio

from jarvis.common.loop_priority import run_first, wake_first


async def waiting(order: list[str]) -> tuple[asyncio.Future[None], asyncio.Task[None]]:
    """A task waiting on a future (it notes "woken"), and "queued" work queued after it waits."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[None] = loop.create_future()

    async def waiter() -> None:
        await future
        order.append("woken")

    task = asyncio.create_task(waiter())
    await asyncio.sleep(0)  # it waits on the future
    loop.call_soon(order.append, "queued")
    return future, task


async def test_the_woken_task_runs_before_what_was_queued_earlier() -> None:
    order: list[str] = []
    future, task = await waiting(order)
    wake_first(future)
    wake_first(future)  # done already: nothing more
    await task
    await asyncio.sleep(0)
    assert order == ["woken", "queued"]


async def test_a_plain_set_result_runs_it_last() -> None:
    """What asyncio does without it (the contrast the server's approvals avoid)."""
    order: list[str] = []
    future, task = await waiting(order)
    future.set_result(None)
    await task
    assert order == ["queued", "woken"]


async def test_a_queue_reader_woken_by_run_first_reads_before_queued_work() -> None:
    """As a frame read from a socket would wake the reader waiting on its queue."""
    loop = asyncio.get_running_loop()
    order: list[str] = []
    queue: asyncio.Queue[str] = asyncio.Queue()

    async def reader() -> None:
        order.append(await queue.get())

    task = asyncio.create_task(reader())
    await asyncio.sleep(0)  # it waits on the queue
    loop.call_soon(order.append, "queued")
    assert run_first(lambda: queue.put_nowait("frame")) is None
    await task
    await asyncio.sleep(0)
    assert order == ["frame", "queued"]
