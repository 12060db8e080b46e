"""The stop event DBOS's queue threads wait on: its waits last at least the floor unless the
engine is woken or stopped, and a wake is never lost to a thread that was busy when it came."""

from __future__ import annotations

import threading

from jarvis.app.unattended.engine_quiet import WakingStop

HOUR = 3600.0  # a floor no test waits out: a missed wake hangs (pytest's timeout guards)


def waiter(stop: WakingStop, timeout: float, out: list[bool]) -> threading.Thread:
    thread = threading.Thread(target=lambda: out.append(stop.wait(timeout)))
    thread.start()
    return thread


def test_a_wake_ends_a_wait_that_asked_for_less_than_the_floor() -> None:
    stop = WakingStop(HOUR)
    out: list[bool] = []
    # DBOS asks for a second; without a wake it would wait the hour
    thread = waiter(stop, 1.0, out)
    while not stop._state._waiters:  # type: ignore[attr-defined]  # the thread is waiting
        threading.Event().wait(0.001)
    stop.wake()
    thread.join()
    assert out == [False]  # woken, not stopped: the loop polls again


def test_a_wake_before_the_wait_is_not_lost() -> None:
    stop = WakingStop(HOUR)
    stop.wake()  # came while the thread was dequeuing
    assert stop.wait(1.0) is False  # returns at once
    stop.wake()
    assert stop.wait(0) is False


def test_each_thread_sees_each_wake() -> None:
    stop = WakingStop(HOUR)
    stop.wake()
    out: list[bool] = []
    assert stop.wait(1.0) is False  # this thread took it in
    waiter(stop, 1.0, out).join()  # another thread still sees it: both look for work
    assert out == [False]


def test_setting_it_stops_every_waiter_and_later_waits() -> None:
    stop = WakingStop(HOUR)
    out: list[bool] = []
    threads = [waiter(stop, 1.0, out) for _ in range(3)]
    while len(stop._state._waiters) < 3:  # type: ignore[attr-defined]
        threading.Event().wait(0.001)
    stop.set()
    for thread in threads:
        thread.join()
    assert out == [True, True, True]
    assert stop.is_set() and stop.wait(1.0) is True
