"""Missed runs after downtime follow the schedule's policy: `run_once` starts the latest missed
due time once, `skip` starts none; the next due time on time runs either way. The restart reads
the last run from the engine's own database."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of, write_schedule
from tests.support.live_server import live_server

SEOUL = ZoneInfo("Asia/Seoul")


def _ms(day: int, hour: int, minute: int = 0, second: int = 0) -> int:
    return int(datetime(2026, 12, day, hour, minute, second, tzinfo=SEOUL).timestamp() * 1000)


async def _down_then_up(home: Path) -> tuple[list[str], list[str]]:
    script = ["요약"] * 4
    with live_server(home, script, scheduler=MANUAL) as server:
        runtime = unattended_of(server).runtime
        assert runtime is not None
        await on_server(server, runtime.tick(_ms(1, 8, 59)))
        first = await on_server(server, runtime.tick(_ms(1, 9, 0, 1)))
        await on_server(server, unattended_of(server).engine.wait(first[0]))
    # Down from 1 December 09:00 until 4 December 10:00 (three due times missed).
    with live_server(home, script, scheduler=MANUAL) as server:
        runtime = unattended_of(server).runtime
        assert runtime is not None
        after = await on_server(server, runtime.tick(_ms(4, 10, 0)))
        on_time = await on_server(server, runtime.tick(_ms(5, 9, 0, 5)))
    return first + after, on_time


async def test_run_once_starts_the_latest_missed_run(tmp_path: Path) -> None:
    write_schedule(tmp_path, "brief", when="every day 9:00", missed="run_once")
    ran, on_time = await _down_then_up(tmp_path)
    assert ran == [
        "sched:brief:2026-12-01T00:00:00+00:00",
        "sched:brief:2026-12-04T00:00:00+00:00",
    ]
    assert on_time == ["sched:brief:2026-12-05T00:00:00+00:00"]


async def test_skip_starts_no_missed_run(tmp_path: Path) -> None:
    write_schedule(tmp_path, "brief", when="every day 9:00", missed="skip")
    ran, on_time = await _down_then_up(tmp_path)
    assert ran == ["sched:brief:2026-12-01T00:00:00+00:00"]
    assert on_time == ["sched:brief:2026-12-05T00:00:00+00:00"]
