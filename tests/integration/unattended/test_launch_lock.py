"""Processes launching the durable engine together on one PostgreSQL database take turns: DBOS's
schema migrations are not safe against each other ("tuple concurrently updated" stopped one)."""

from __future__ import annotations

import asyncio
import threading

import psycopg

from jarvis.app.unattended.engine import _LAUNCH_LOCK, _one_launch_at_a_time
from tests.support.hang import HANG_GUARD_SEC


def waiting_for_the_lock(dsn: str) -> bool:
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            " AND objid = %s",
            (_LAUNCH_LOCK,),
        ).fetchone()
    return row is not None and row[0] > 0


async def test_a_second_launch_waits_until_the_first_is_done(dsn: str) -> None:
    await asyncio.to_thread(second_launch_waits, dsn)


def second_launch_waits(dsn: str) -> None:
    entered = threading.Event()

    def second() -> None:
        with _one_launch_at_a_time(dsn):
            entered.set()

    with _one_launch_at_a_time(dsn):
        other = threading.Thread(target=second)
        other.start()
        while not waiting_for_the_lock(dsn):  # the second launch asked and was made to wait
            assert other.is_alive()
            entered.wait(0.05)  # a poll interval: the condition above decides
        assert not entered.is_set()
    other.join(HANG_GUARD_SEC)
    assert entered.is_set()  # let in once the first launch let go


def test_sqlite_launches_take_no_lock() -> None:
    with _one_launch_at_a_time("sqlite:///nowhere/engine.sqlite"):
        pass  # no database contacted: nothing to connect to here
