"""When a schedule is due, in the user's timezone, DST included (pure).

A schedule is a 5-field cron line or a phrase ("every weekday 9:00", "every day 7:30",
"every monday 10:00", "every 15 minutes"). Cron fields are read as local wall-clock time in
`JARVIS_TIMEZONE`; the two DST edge cases follow classic cron:

* a wall time skipped by a spring-forward gap (02:30 on the night clocks jump 02:00 → 03:00)
  runs once, at the first instant after the gap;
* a wall time that happens twice in an autumn fold (01:30 twice) runs once, at its first
  occurrence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from cronsim import CronSim, CronSimError

_DAYS = {
    "day": "*",
    "weekday": "1-5",
    "weekend": "0,6",
    "sunday": "0",
    "monday": "1",
    "tuesday": "2",
    "wednesday": "3",
    "thursday": "4",
    "friday": "5",
    "saturday": "6",
}
_PHRASE = re.compile(r"^every\s+(?P<day>[a-z]+)\s+(?:at\s+)?(?P<h>\d{1,2}):(?P<m>\d{2})$")
_EVERY_N = re.compile(r"^every\s+(?P<n>\d{1,2})\s+minutes?$")
# Safety stop for iterating a pathological spec (e.g. Feb 30 never matches).
_MAX_STEPS = 10_000


class ScheduleSpecError(ValueError):
    """The `when` of a schedule is neither a cron line nor a known phrase."""


def to_cron(when: str) -> str:
    """The 5-field cron line for `when` (a cron line is returned as written)."""
    text = " ".join(when.strip().lower().split())
    phrase = _PHRASE.match(text)
    if phrase:
        day = _DAYS.get(phrase["day"].removesuffix("s"))
        hour, minute = int(phrase["h"]), int(phrase["m"])
        if day is None or hour > 23 or minute > 59:
            raise ScheduleSpecError(f"unknown schedule phrase: {when!r}")
        return f"{minute} {hour} * * {day}"
    every = _EVERY_N.match(text)
    if every:
        step = int(every["n"])
        if not 1 <= step <= 59:
            raise ScheduleSpecError(f"every N minutes needs 1..59: {when!r}")
        return f"*/{step} * * * *"
    if len(text.split()) != 5:
        raise ScheduleSpecError(
            f"not a 5-field cron line or a phrase like 'every weekday 9:00': {when!r}"
        )
    try:
        CronSim(text, datetime(2000, 1, 1))
    except CronSimError as exc:
        raise ScheduleSpecError(f"invalid cron line {when!r}: {exc}") from None
    return text


def _local_instant(wall: datetime, tz: ZoneInfo) -> datetime:
    """The UTC instant of a naive local wall time: its first occurrence in a fold, the first
    instant after the gap when the wall time does not exist."""
    first = wall.replace(tzinfo=tz, fold=0).astimezone(UTC)
    if first.astimezone(tz).replace(tzinfo=None) == wall:
        return first  # exists (fold=0 is the earlier of two occurrences)
    # In a gap: the instant the clock jumped lies between the two offsets' readings.
    low = wall.replace(tzinfo=tz, fold=1).astimezone(UTC)
    high = first
    while high - low > timedelta(seconds=1):
        mid = low + (high - low) / 2
        if mid.astimezone(tz).replace(tzinfo=None) >= wall:
            high = mid
        else:
            low = mid
    return high.replace(microsecond=0)


def _walls_after(cron: str, start_wall: datetime) -> Iterator[datetime]:
    yield from CronSim(cron, start_wall)


def due_times(cron: str, after: datetime, until: datetime, tz: ZoneInfo) -> list[datetime]:
    """Every due instant (UTC) in (after, until], in order, each once."""
    result: list[datetime] = []
    start_wall = after.astimezone(tz).replace(tzinfo=None)
    # Step back an hour so a wall time inside the gap/fold around `after` is still seen.
    walls = _walls_after(cron, start_wall - timedelta(hours=3))
    for steps, wall in enumerate(walls):
        if steps > _MAX_STEPS:
            break
        instant = _local_instant(wall, tz)
        if instant > until:
            break
        if instant > after and (not result or instant > result[-1]):
            result.append(instant)
    return result


def next_due(cron: str, after: datetime, tz: ZoneInfo) -> datetime | None:
    """The first due instant strictly after `after` (None when the spec never matches)."""
    start_wall = after.astimezone(tz).replace(tzinfo=None)
    for steps, wall in enumerate(_walls_after(cron, start_wall - timedelta(hours=3))):
        if steps > _MAX_STEPS:
            return None
        instant = _local_instant(wall, tz)
        if instant > after:
            return instant
    return None
