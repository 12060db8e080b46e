"""Due times in the user's timezone, DST gaps and folds included (table tests)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from jarvis.core.scheduler.timing import ScheduleSpecError, due_times, next_due, to_cron

NY = ZoneInfo("America/New_York")
SEOUL = ZoneInfo("Asia/Seoul")
BERLIN = ZoneInfo("Europe/Berlin")


@pytest.mark.parametrize(
    ("when", "cron"),
    [
        ("every weekday 9:00", "0 9 * * 1-5"),
        ("Every Day at 7:30", "30 7 * * *"),
        ("every monday 10:05", "5 10 * * 1"),
        ("every mondays 10:05", "5 10 * * 1"),
        ("every weekend 8:00", "0 8 * * 0,6"),
        ("every 15 minutes", "*/15 * * * *"),
        ("0 9 * * 1-5", "0 9 * * 1-5"),
    ],
)
def test_phrases_and_cron_lines(when: str, cron: str) -> None:
    assert to_cron(when) == cron


@pytest.mark.parametrize(
    "when", ["every someday 9:00", "every day 25:00", "every 0 minutes", "1 2 3", "61 * * * *"]
)
def test_bad_specs_are_refused(when: str) -> None:
    with pytest.raises(ScheduleSpecError):
        to_cron(when)


def _local(tz: ZoneInfo, *parts: int) -> datetime:
    return datetime(*parts, tzinfo=tz).astimezone(UTC)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("cron", "tz", "after", "expected_local"),
    [
        # Seoul has no DST: weekday 9:00, Friday evening → Monday morning.
        ("0 9 * * 1-5", SEOUL, _local(SEOUL, 2026, 12, 4, 18, 0), "2026-12-07T09:00:00+09:00"),
        # Exactly at a due time: the next one, never the same again.
        ("0 9 * * *", SEOUL, _local(SEOUL, 2026, 12, 4, 9, 0), "2026-12-05T09:00:00+09:00"),
        # Spring forward in New York (02:00 → 03:00): 02:30 runs at the jump, once.
        ("30 2 * * *", NY, _local(NY, 2026, 3, 8, 0, 0), "2026-03-08T03:00:00-04:00"),
        # Berlin's gap (02:00 → 03:00 on 29 March 2026).
        ("15 2 * * *", BERLIN, _local(BERLIN, 2026, 3, 29, 0, 0), "2026-03-29T03:00:00+02:00"),
        # Fall back in New York: 01:30 happens twice, runs at the first (EDT).
        ("30 1 * * *", NY, _local(NY, 2026, 11, 1, 0, 0), "2026-11-01T01:30:00-04:00"),
        # The day after a DST change keeps the wall time.
        ("0 9 * * *", NY, _local(NY, 2026, 3, 8, 10, 0), "2026-03-09T09:00:00-04:00"),
    ],
)
def test_next_due(cron: str, tz: ZoneInfo, after: datetime, expected_local: str) -> None:
    due = next_due(cron, after, tz)
    assert due is not None
    assert due.astimezone(tz).isoformat() == expected_local


@pytest.mark.parametrize(
    ("cron", "tz", "start", "hours", "count"),
    [
        # The fold night: 01:30 runs once, not twice.
        ("30 1 * * *", NY, _local(NY, 2026, 10, 31, 12, 0), 24, 1),
        # The gap night: 02:30 still runs once.
        ("30 2 * * *", NY, _local(NY, 2026, 3, 7, 12, 0), 24, 1),
        # Five weekdays in one week.
        ("0 9 * * 1-5", SEOUL, _local(SEOUL, 2026, 12, 6, 12, 0), 24 * 7, 5),
        # Every 15 minutes for two hours: 8 runs.
        ("*/15 * * * *", SEOUL, _local(SEOUL, 2026, 12, 6, 12, 0), 2, 8),
    ],
)
def test_due_times_each_once(
    cron: str, tz: ZoneInfo, start: datetime, hours: int, count: int
) -> None:
    due = due_times(cron, start, start + timedelta(hours=hours), tz)
    assert len(due) == count
    assert due == sorted(set(due))


def test_a_spec_that_never_matches_is_refused() -> None:
    with pytest.raises(ScheduleSpecError):
        to_cron("0 0 30 2 *")
