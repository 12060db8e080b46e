"""DBOS 3.4.0 polled its database every second even with nothing to do; here its idle polls are
slower and what this process does to the engine wakes it at once.

What DBOS polls, and what happens to each here (read `dbos/_dbos.py` `_launch`):

- The internal queue's worker (`queue_worker_thread`) dequeues ENQUEUED runs: the runs that
  start-up recovery (`_recovery._recover_workflow`) hands back after a crash, and whatever
  another process enqueued. It and the queue manager (`queue_thread`, which lists the
  database's queues) wait on a `WakingStop` instead of the plain stop event: every wait lasts at
  least `POLL_SEC`, and ends at once when the engine launches (runs left ENQUEUED by a killed
  process) or when this process hands a run back to the queue. A wake is never lost: a thread
  that was busy when it came finds it on its next wait.
- The background jobs (delayed workflows, the timeout sweep; Jarvis uses neither) run every
  `POLL_SEC`, holding their lock only while they run (DBOS held it for the whole interval,
  which PostgreSQL ends after 5 s idle).
- The schedule poller skips its first minute of polling each second (Jarvis keeps its schedules
  itself; DBOS's own 30 s poll stays).
- The PostgreSQL notifier, which woke every 10 ms to send coalesced NOTIFYs of messages, events
  and streams Jarvis does not use: every second (`NOTIFY_COALESCE_SEC`, a DBOS setting).

`POLL_SEC` bounds how late the engine finds work no local event announced (another process's
recovered or enqueued run). DBOS is pinned (pyproject): each name replaced here is checked at
install, so an upgrade that moves one fails at launch instead of polling differently.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

POLL_SEC = 10.0
NOTIFY_COALESCE_SEC = 1.0
DBOS_VERSION = "3.4.0"


class WakingStop(threading.Event):
    """A stop event whose `wait(timeout)` waits at least `floor` seconds, ends early when the
    event is set or `wake()` was called since this thread's last wait, and returns whether the
    event is set (what DBOS's loops test)."""

    def __init__(self, floor: float) -> None:
        super().__init__()
        self.floor = floor
        self._state = threading.Condition()
        self._stopped = False
        self._wakes = 0
        self._seen: dict[int, int] = {}  # per thread: the wakes its last wait took in

    def wake(self) -> None:
        with self._state:
            self._wakes += 1
            self._state.notify_all()

    def set(self) -> None:
        with self._state:
            self._stopped = True
            self._state.notify_all()

    def clear(self) -> None:
        with self._state:
            self._stopped = False

    def is_set(self) -> bool:
        return self._stopped

    def wait(self, timeout: float | None = None) -> bool:
        me = threading.get_ident()
        with self._state:
            seen = self._seen.get(me, 0)
            span = None if timeout is None else max(timeout, self.floor)
            self._state.wait_for(lambda: self._stopped or self._wakes != seen, span)
            self._seen[me] = self._wakes
            return self._stopped


class _Current:
    stop: WakingStop | None = None


_CURRENT = _Current()
_INSTALLED: list[bool] = []


def wake_queue() -> None:
    """The queue threads look for ENQUEUED runs now."""
    stop = _CURRENT.stop
    if stop is not None:
        stop.wake()


def prepare(dbos: Any) -> WakingStop:
    """Before `DBOS.launch()`: a fresh stop event for this launch's queue threads, woken once
    (runs a killed process left ENQUEUED are found at start, not `POLL_SEC` later)."""
    _install()
    stop = WakingStop(POLL_SEC)
    dbos.background_thread_stop_events.append(stop)  # `DBOS.destroy` sets it with the others
    _CURRENT.stop = stop
    stop.wake()
    return stop


def _install() -> None:
    """Replace DBOS's polling loops once per process (module globals its code looks up)."""
    if _INSTALLED:
        return
    from importlib.metadata import version

    from dbos import _dbos, _queue, _recovery, _scheduler, _workflow_commands

    if version("dbos") != DBOS_VERSION:
        raise RuntimeError(f"engine_quiet is written for dbos {DBOS_VERSION}")
    original_queue_thread: Callable[[threading.Event, Any], None] = _queue.queue_thread
    original_recover: Callable[..., Any] = _recovery._recover_workflow

    def queue_thread(stop_event: threading.Event, dbos: Any) -> None:
        stop = _CURRENT.stop
        if stop is None:  # launched without `prepare`: DBOS's own polling
            original_queue_thread(stop_event, dbos)
            return
        if stop_event.is_set():
            stop.set()
        original_queue_thread(stop, dbos)

    def recover_workflow(dbos: Any, workflow: Any, executor_ids: list[str]) -> Any:
        handle = original_recover(dbos, workflow, executor_ids)
        wake_queue()  # handed back to the internal queue: dequeue it now
        return handle

    _dbos.queue_thread = queue_thread  # type: ignore[attr-defined]  # what `_launch` starts
    _recovery._recover_workflow = recover_workflow
    _workflow_commands._run_background_jobs = _run_background_jobs
    _scheduler._STARTUP_FAST_POLL_DURATION_SEC = 0.0
    _INSTALLED.append(True)


def _run_background_jobs(
    stop_event: threading.Event,
    dbos: Any,
    lock_name: str,
    interval_sec: float,
    jobs: dict[str, Callable[[], None]],
) -> None:
    """DBOS's `_run_background_jobs`, every `POLL_SEC` instead of `interval_sec`, the lock
    held only while the jobs run."""
    while True:
        try:
            with dbos._sys_db.background_job_lock(lock_name) as acquired:
                for job_name, job in jobs.items() if acquired else ():
                    try:
                        job()
                    except Exception as exc:
                        dbos.logger.warning(f"Exception in background job {job_name}: {exc}")
        except Exception as exc:
            dbos.logger.warning(f"Exception taking the {lock_name} lock: {exc}")
        if stop_event.wait(max(interval_sec, POLL_SEC) * random.uniform(0.9, 1.1)):
            return
