"""Missed runs, reminders, goal budgets (table tests)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from jarvis.core.scheduler.budget import GoalBudget, GoalUsage, out_of_budget
from jarvis.core.scheduler.missed import runs_to_start
from jarvis.core.scheduler.reminders import reminder_times, reminders_due

T0 = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
H = timedelta(hours=1)


@pytest.mark.parametrize(
    ("due", "now", "policy", "expected"),
    [
        ([T0], T0 + timedelta(seconds=5), "run_once", [T0]),  # on time
        ([T0], T0 + timedelta(seconds=5), "skip", [T0]),  # on time is not missed
        ([T0, T0 + H, T0 + 2 * H], T0 + 3 * H, "run_once", [T0 + 2 * H]),  # downtime: latest once
        ([T0, T0 + H, T0 + 2 * H], T0 + 3 * H, "skip", []),
        ([T0, T0 + 3 * H], T0 + 3 * H + timedelta(seconds=1), "run_once", [T0, T0 + 3 * H]),
        ([T0, T0 + 3 * H], T0 + 3 * H + timedelta(seconds=1), "skip", [T0 + 3 * H]),
        ([], T0, "run_once", []),
    ],
)
def test_missed_runs(
    due: list[datetime], now: datetime, policy: str, expected: list[datetime]
) -> None:
    assert runs_to_start(due, now, policy) == expected  # type: ignore[arg-type]


DUE = 10_000_000_000
MIN = 60_000


def test_reminder_times_default_hour_before_and_at_due() -> None:
    got = reminder_times("L1", DUE)
    assert [(r.key, r.at_ms) for r in got] == [("L1:3600", DUE - 60 * MIN), ("L1:0", DUE)]


@pytest.mark.parametrize(
    ("status", "due", "created", "now", "offsets", "keys"),
    [
        ("open", DUE, DUE - 5 * 60 * MIN, DUE - 61 * MIN, (3600, 0), []),  # too early
        ("open", DUE, DUE - 5 * 60 * MIN, DUE - 60 * MIN, (3600, 0), ["L:3600"]),
        ("open", DUE, DUE - 5 * 60 * MIN, DUE + 1, (3600, 0), ["L:0"]),  # at due (latest only)
        ("done", DUE, DUE - 5 * 60 * MIN, DUE, (3600, 0), []),  # closed meanwhile: never
        ("dismissed", DUE, DUE - 5 * 60 * MIN, DUE - 60 * MIN, (3600, 0), []),
        ("open", None, DUE - 5 * 60 * MIN, DUE, (3600, 0), []),  # no due date
        ("open", DUE, DUE - 30 * MIN, DUE - 29 * MIN, (3600, 0), []),  # made after "1 h before"
        ("open", DUE, DUE - 30 * MIN, DUE, (3600, 0), ["L:0"]),
        ("open", DUE, DUE - 5 * 60 * MIN, DUE + 16 * MIN, (3600, 0), []),  # long past
        ("open", DUE, DUE - 5 * 60 * MIN, DUE - 10 * MIN, (900, 0), ["L:900"]),  # configured
    ],
)
def test_reminders_due(
    status: str, due: int | None, created: int, now: int, offsets: tuple[int, ...], keys: list[str]
) -> None:
    got = reminders_due("L", status, due, created, now, offsets)
    assert [r.key for r in got] == keys


@pytest.mark.parametrize(
    ("usage", "now", "expected"),
    [
        (GoalUsage(turns=0, tokens=0, started_ms=1000), 1000, None),
        (GoalUsage(turns=3, tokens=0, started_ms=1000), 1000, "turns"),
        (GoalUsage(turns=1, tokens=500, started_ms=1000), 1000, "tokens"),
        (GoalUsage(turns=1, tokens=10, started_ms=1000), 1000 + 60_000, "time"),
        (GoalUsage(turns=3, tokens=500, started_ms=1000), 1000 + 60_000, "turns"),
    ],
)
def test_goal_budget(usage: GoalUsage, now: int, expected: str | None) -> None:
    budget = GoalBudget(max_turns=3, max_tokens=500, max_seconds=60)
    assert out_of_budget(usage, budget, now) == expected
