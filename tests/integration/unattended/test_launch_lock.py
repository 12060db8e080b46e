"""Processes launching the durable engine together on one PostgreSQL database take turns: DBOS's
schema migrations are not safe against each other ("tuple concurrently updated" stopped one)."""

from __future__ import annotations

import asyncio
import threading

import psycopg

from jarvis.app.unattended.engine import _one_launch_at_a_time
from tests.support.hang import HANG_GUARD_SEC


def lock_askers(dsn: str) -> int:
    """Connections whose last statement asked for the launch lock (the holder's too)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_%advisory_lock(%'"
        ).fetchone()
    return row[0] if row else 0


def second_launch_waits(dsn: str) -> None:
    entered = threading.Event()

    def second() -> None:
        with _one_launch_at_a_time(dsn):
            entered.set()

    with _one_launch_at_a_time(dsn), psycopg.connect(dsn, autocommit=True) as migrating:
        other = threading.Thread(target=second)
        other.start()
        while lock_askers(dsn) < 2:  # the second launch has asked
            assert other.is_alive()
            entered.wait(0.05)  # a poll interval: the condition above decides
        # What DBOS's migrations do while the other process waits: an index built
        # CONCURRENTLY waits for every open statement, so a launch waiting inside one
        # (pg_advisory_lock) would stop this for ever.
        migrating.execute("CREATE TABLE launch_probe (n int)")
        migrating.execute("CREATE INDEX CONCURRENTLY launch_probe_n ON launch_probe (n)")
        assert not entered.is_set()
    other.join(HANG_GUARD_SEC)
    assert entered.is_set()  # let in once the first launch let go


async def test_a_second_launch_waits_until_the_first_is_done(dsn: str) -> None:
    await asyncio.to_thread(second_launch_waits, dsn)


def test_sqlite_launches_take_no_lock() -> None:
    with _one_launch_at_a_time("sqlite:///nowhere/engine.sqlite"):
        pass  # no database contacted: nothing to connect to here
