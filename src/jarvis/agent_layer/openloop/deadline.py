"""A deterministic KO/EN deadline parser: the user's own words → a due moment.

The AGENDA judge drops the ``@YYYY-MM-DD HH:MM`` due about half the time (seed 001), so the
deadline is read from the user's words instead. Pure: ``now`` and the timezone are parameters.
``dateparser`` is not used: it drops the time of "내일 오후 3시까지" and fails on 모레 and
"다음 주 금요일".

Defaults. Every hour the words do not state sets ``Deadline.inferred``:

- A day with no time ("내일까지", "by Friday") is due at 18:00, the end of the working day, so a
  loop that expires 6 h after its due closes at midnight of that day.
- A guessed time that has already passed on the day the user named ("오늘까지" at 20:00) is due
  at 23:59 that day: still today, never in the past of a day the user meant to include.
- A bare hour 1–12 ("내일 3시", "at 9") takes the first waking hour (07:00–23:59) that has not
  passed: on a future day 1–6 → PM and 7–12 → AM/noon; "오늘 9시" at 10:00 → 21:00; with no
  day, the next such moment today or tomorrow. 오전/오후/아침/저녁/밤/새벽, am/pm and
  morning/evening/tonight decide the half instead, and the hour is then not inferred.
- A stated time with no day is today, or tomorrow once it has passed.
- Weekdays: "금요일까지" / "by Friday" is the next one, today included (on a Friday it is
  today); "이번 주 금요일" / "this Friday" is Friday of this Monday-first week, or the next
  Friday once that has passed; "다음 주 금요일" / "next Friday" is Friday of the next week.
  A weekday (or "주말", "this week") that names today with a time or period already passed
  ("by Friday 10am", "금요일 오전 10시까지" on a Friday evening) is next week's: the person
  cannot promise a moment behind them. Without a time it stays today ("금요일까지" at 20:00
  → 23:59 today).
- Periods without an hour: 새벽 06:00, 아침/morning 09:00, 오전 12:00, 점심 12:00,
  오후/afternoon 15:00, 퇴근/EOD/end of day 18:00, 저녁/evening 19:00, 밤/night/tonight 21:00.
  정오/noon 12:00 and 자정/midnight/밤 12시 23:59 are stated, not inferred.
- "이번 주"/"this week"/"end of week" → the next Friday (today on a Friday), "다음 주"/"next
  week" → Friday of next week, "주말"/"this weekend" → the next Sunday, "다음 주말" → Sunday
  of next week, "월말"/"end of month" → the month's last day.
- "10월 12일", "Oct 12", "12일", "the 12th" are the next such date, today included.
- "N시간 뒤", "30분 후", "in 2 hours" are exact (to the minute) and win over every other part.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from pydantic import BaseModel, ConfigDict

from jarvis.agent_layer.openloop.deadline_clock import _CLOCK_RULES, _PERIOD_RULES
from jarvis.agent_layer.openloop.deadline_days import _DAY_RULES, WeekdayDate
from jarvis.agent_layer.openloop.deadline_vocab import (
    _EN_IN,
    _EN_NUM_RE,
    _KO_AFTER,
    _NATIVE_RE,
    _Clock,
    _Ctx,
    _Half,
    _num,
    _Period,
    _re,
    _Rules,
    _scan,
    _Span,
)

DEFAULT_DUE_TIME = time(18, 0)
_LAST_MINUTE = time(23, 59)
_WAKING_FROM_HOUR = 7


class Deadline(BaseModel):
    model_config = ConfigDict(frozen=True)

    due: datetime
    inferred: bool
    matched: str


def parse_deadline(text: str, now: datetime, tz: tzinfo) -> Deadline | None:
    """The deadline the words state, resolved against ``now`` (aware) in ``tz``; None if none."""
    text = unicodedata.normalize("NFC", text)
    ctx = _Ctx(now=now.astimezone(tz))
    taken: list[_Span] = []
    moment = _scan(_MOMENT_RULES, text, ctx, taken)
    if moment is not None:
        return Deadline(due=moment, inferred=False, matched=_matched(text, taken))
    day = _scan(_DAY_RULES, text, ctx, taken)
    clock = _scan(_CLOCK_RULES, text, ctx, taken)
    period = _scan(_PERIOD_RULES, text, ctx, taken)
    if day is None and clock is None and period is None:
        return None
    due, inferred = _combine(day, clock, period, ctx)
    return Deadline(due=due, inferred=inferred, matched=_matched(text, taken))


def _matched(text: str, taken: list[_Span]) -> str:
    return text[min(s for s, _ in taken) : max(e for _, e in taken)].strip()


# ---- combining the parts ------------------------------------------------------------------


def _combine(
    day: date | None, clock: _Clock | None, period: _Period | None, ctx: _Ctx
) -> tuple[datetime, bool]:
    """The due of the parts; a weekday that names today at a time already passed ("by Friday
    10am" on a Friday evening) is next week's, never a promise created already overdue."""
    due, inferred = _combine_on(day, clock, period, ctx)
    if not isinstance(day, WeekdayDate) or day != ctx.today:
        return due, inferred
    if clock is not None:
        stated = due
    elif period is not None:  # "금요일 아침까지": the period's hour, before the 23:59 default
        stated = _at(day, period.hour, period.minute, ctx)
    else:
        return due, inferred
    if _before(stated, ctx.now):
        return _combine_on(day + timedelta(days=7), clock, period, ctx)
    return due, inferred


def _combine_on(
    day: date | None, clock: _Clock | None, period: _Period | None, ctx: _Ctx
) -> tuple[datetime, bool]:
    if day is None and period is not None and period.implies_today:
        day = ctx.today
    if clock is not None and clock.ambiguous and period is not None:
        clock = _with_half(clock, period.half)
    if clock is not None and clock.ambiguous:
        return _resolve_ambiguous(clock, day, ctx), True
    if clock is not None:
        return _at_clock(clock, day, ctx), False
    if period is not None:
        return _at_default(time(period.hour, period.minute), day, ctx), True
    assert day is not None
    return _at_default(DEFAULT_DUE_TIME, day, ctx), True


def _with_half(clock: _Clock, half: _Half) -> _Clock:
    hour = clock.hour % 12 + (12 if half == "pm" else 0)
    return replace(clock, hour=hour, ambiguous=False)


def _at(day: date, hour: int, minute: int, ctx: _Ctx) -> datetime:
    """The wall time on `day`, resolved forward on DST nights: a time that happens twice (fall
    back) is the earlier instant unless that has passed; a time that never happens (spring
    forward) moves past the gap by its length (02:30 → 03:30)."""
    wall = datetime.combine(day, time(hour, minute))
    early, late = wall.replace(tzinfo=ctx.tz, fold=0), wall.replace(tzinfo=ctx.tz, fold=1)
    if early.utcoffset() == late.utcoffset():
        return early
    if _real(early):  # both folds exist: the time is ambiguous
        return late if _before(early, ctx.now) else early
    # In the gap, fold=0 reads the wall time with the offset before the jump; that instant
    # shown in local time is the wall time after the gap.
    return early.astimezone(UTC).astimezone(ctx.tz)


def _real(moment: datetime) -> bool:
    return moment.astimezone(UTC).astimezone(moment.tzinfo).replace(fold=moment.fold) == moment


def _before(a: datetime, b: datetime) -> bool:
    """Instant order: aware datetimes sharing a tzinfo compare by wall time, ignoring `fold`."""
    return a.timestamp() < b.timestamp()


def _at_clock(clock: _Clock, day: date | None, ctx: _Ctx) -> datetime:
    if day is not None:
        return _at(day + timedelta(days=int(clock.next_day)), clock.hour, clock.minute, ctx)
    due = _at(ctx.today, clock.hour, clock.minute, ctx)
    if not _before(due, ctx.now):
        return due
    return _at(ctx.today + timedelta(days=1), clock.hour, clock.minute, ctx)


def _at_default(at: time, day: date | None, ctx: _Ctx) -> datetime:
    due = _at(day or ctx.today, at.hour, at.minute, ctx)
    if not _before(due, ctx.now):
        return due
    if day is None:
        return _at(ctx.today + timedelta(days=1), at.hour, at.minute, ctx)
    if day == ctx.today:
        return _at(day, _LAST_MINUTE.hour, _LAST_MINUTE.minute, ctx)
    return due


def _resolve_ambiguous(clock: _Clock, day: date | None, ctx: _Ctx) -> datetime:
    days = [day] if day is not None else [ctx.today, ctx.today + timedelta(days=1)]
    hours = (clock.hour % 12, clock.hour % 12 + 12)
    moments = (_at(d, h, clock.minute, ctx) for d in days for h in hours)
    options = sorted(moments, key=lambda moment: moment.timestamp())
    waking = [o for o in options if o.hour >= _WAKING_FROM_HOUR]
    ahead = [o for o in waking if not _before(o, ctx.now)]
    return (ahead or waking)[0]


# ---- moments: "N시간 뒤", "in 2 hours" ------------------------------------------------------


def _hours_later(m: re.Match[str], ctx: _Ctx) -> datetime:
    minutes = _num(m["n"]) * 60 + (30 if m["half"] else 0)
    return _later(ctx, minutes)


def _minutes_later(m: re.Match[str], ctx: _Ctx) -> datetime:
    return _later(ctx, _num(m["n"]))


def _en_later(m: re.Match[str], ctx: _Ctx) -> datetime:
    per = 60 if m["unit"].lower().startswith("h") else 1
    return _later(ctx, _num(m["n"]) * per)


def _later(ctx: _Ctx, minutes: int) -> datetime:
    # Absolute arithmetic, then back to local time: a DST jump must not shift "in 2 hours".
    at = (ctx.now.astimezone(UTC) + timedelta(minutes=minutes)).astimezone(ctx.tz)
    return at.replace(second=0, microsecond=0)


_EN_UNIT_HM = r"(?P<unit>hours?|hrs?|minutes?|mins?)\b"
_MOMENT_RULES: _Rules[datetime] = [
    (_re(rf"(?P<n>\d+|{_NATIVE_RE})\s*시간(?:\s*(?P<half>반))?{_KO_AFTER}"), _hours_later),
    (_re(rf"(?P<n>\d+)\s*분{_KO_AFTER}"), _minutes_later),
    (_re(rf"{_EN_IN}(?P<n>{_EN_NUM_RE})\s+{_EN_UNIT_HM}"), _en_later),
    (_re(rf"\b(?P<n>{_EN_NUM_RE})\s+{_EN_UNIT_HM}\s+from\s+now\b"), _en_later),
    (_re(r"\bin\s+half\s+an\s+(?P<unit>hour)\b"), lambda m, ctx: _later(ctx, 30)),
]
