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

import calendar
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict

DEFAULT_DUE_TIME = time(18, 0)
_LAST_MINUTE = time(23, 59)
_WAKING_FROM_HOUR = 7
_FRIDAY, _SUNDAY = 4, 6

_Half = Literal["am", "pm"]
_T = TypeVar("_T")


class Deadline(BaseModel):
    model_config = ConfigDict(frozen=True)

    due: datetime
    inferred: bool
    matched: str


@dataclass(frozen=True)
class _Ctx:
    now: datetime

    @property
    def today(self) -> date:
        return self.now.date()

    @property
    def tz(self) -> tzinfo:
        tz = self.now.tzinfo
        assert tz is not None
        return tz


@dataclass(frozen=True)
class _Clock:
    hour: int
    minute: int
    ambiguous: bool = False
    next_day: bool = False  # "밤 1시" is after midnight of the day named


@dataclass(frozen=True)
class _Period:
    hour: int
    minute: int
    half: _Half
    implies_today: bool = False


_Handler = Callable[[re.Match[str], _Ctx], _T | None]
_Rules = Sequence[tuple[re.Pattern[str], _Handler[_T]]]
_Span = tuple[int, int]


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


def _scan(rules: _Rules[_T], text: str, ctx: _Ctx, taken: list[_Span]) -> _T | None:
    """The first rule (in priority order) with a match that overlaps no part already taken."""
    for pattern, handler in rules:
        for match in pattern.finditer(text):
            if any(match.start() < end and start < match.end() for start, end in taken):
                continue
            value = handler(match, ctx)
            if value is not None:
                taken.append(match.span())
                return value
    return None


def _matched(text: str, taken: list[_Span]) -> str:
    return text[min(s for s, _ in taken) : max(e for _, e in taken)].strip()


# ---- combining the parts ------------------------------------------------------------------


def _combine(
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


# ---- shared vocabulary ---------------------------------------------------------------------

_NATIVE = {
    "한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8,
    "아홉": 9, "열": 10, "열한": 11, "열두": 12,
}  # fmt: skip
_NATIVE_RE = "열한|열두|다섯|여섯|일곱|여덟|아홉|한|두|세|네|열"
_NATIVE_DAYS = {
    "하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "엿새": 6, "이레": 7, "열흘": 10,
}  # fmt: skip
_EN_NUM = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_EN_NUM_RE = r"\d+|" + "|".join(sorted(_EN_NUM, key=len, reverse=True))
_KO_WEEKDAYS = "월화수목금토일"
_EN_WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tues": 1, "tue": 1, "wednesday": 2,
    "thursday": 3, "thurs": 3, "thur": 3, "thu": 3, "friday": 4, "fri": 4,
    "saturday": 5, "sunday": 6,
}  # fmt: skip
_EN_WEEKDAY_RE = "|".join(sorted(_EN_WEEKDAYS, key=len, reverse=True))
_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_KO_AFTER = r"\s*(?:뒤|후|있다가|이내|안에|내로|내에)"
_EN_IN = r"\b(?:in|within)\s+"


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _num(word: str) -> int:
    word = word.lower()
    if word.isdigit():
        return int(word)
    return _NATIVE.get(word) or _EN_NUM.get(word) or _NATIVE_DAYS.get(word, 0)


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


# ---- days ----------------------------------------------------------------------------------


def _monday(ctx: _Ctx) -> date:
    return ctx.today - timedelta(days=ctx.today.weekday())


def _next_weekday(ctx: _Ctx, weekday: int) -> date:
    return ctx.today + timedelta(days=(weekday - ctx.today.weekday()) % 7)


def _week_day(ctx: _Ctx, which: str | None, weekday: int) -> date:
    """This week's ("이번 주", "this"; the next once passed) or next week's ("다음 주", "next")."""
    which = (which or "").lower()
    if which in ("다음", "담", "next"):
        return _monday(ctx) + timedelta(days=7 + weekday)
    if which == "다다음":
        return _monday(ctx) + timedelta(days=14 + weekday)
    if which in ("이번", "this"):
        return max(_monday(ctx) + timedelta(days=weekday), _next_weekday(ctx, weekday))
    return _next_weekday(ctx, weekday)


def _ko_weekday(m: re.Match[str], ctx: _Ctx) -> date:
    return _week_day(ctx, m.groupdict().get("which"), _KO_WEEKDAYS.index(m["wd"]))


def _en_weekday(m: re.Match[str], ctx: _Ctx) -> date:
    return _week_day(ctx, m.groupdict().get("which"), _EN_WEEKDAYS[m["wd"].lower()])


def _week_end(weekday: int) -> _Handler[date]:
    """Friday ("end of week") or Sunday ("weekend"): the next one, or next week's."""

    def handler(m: re.Match[str], ctx: _Ctx) -> date:
        if (m.groupdict().get("which") or "").lower() in ("다음", "담", "next"):
            return _monday(ctx) + timedelta(days=7 + weekday)
        return _next_weekday(ctx, weekday)

    return handler


def _month_end(m: re.Match[str], ctx: _Ctx) -> date:
    last = calendar.monthrange(ctx.today.year, ctx.today.month)[1]
    return ctx.today.replace(day=last)


def _days_later(days: int) -> _Handler[date]:
    return lambda m, ctx: ctx.today + timedelta(days=days)


def _n_days_later(per: int) -> _Handler[date]:
    return lambda m, ctx: ctx.today + timedelta(days=_num(m["n"] or "1") * per)


def _months_later(m: re.Match[str], ctx: _Ctx) -> date:
    return _add_months(ctx.today, _num(m["n"]))


def _add_months(day: date, months: int) -> date:
    year, month = divmod(day.month - 1 + months, 12)
    year, month = day.year + year, month + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _ymd(m: re.Match[str], ctx: _Ctx) -> date | None:
    return _valid(int(m["y"]), int(m["m"]), int(m["d"]))


def _month_day(m: re.Match[str], ctx: _Ctx) -> date | None:
    month = int(m["m"]) if m["m"].isdigit() else _MONTHS[m["m"].lower()]
    if m.groupdict().get("y"):
        return _valid(int(m["y"]), month, int(m["d"]))
    for year in (ctx.today.year, ctx.today.year + 1):
        due = _valid(year, month, int(m["d"]))
        if due is not None and due >= ctx.today:
            return due
    return None


def _day_of_month(m: re.Match[str], ctx: _Ctx) -> date | None:
    start = ctx.today
    if (m.groupdict().get("which") or "") == "다음":
        start = _add_months(start.replace(day=1), 1)
    for months in range(12):
        first = _add_months(start.replace(day=1), months)
        due = _valid(first.year, first.month, int(m["d"]))
        if due is not None and due >= ctx.today:
            return due
    return None


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


_KO_WHICH = r"(?<![가-힣])(?P<which>다다음|이번|다음|담)\s*주"
_EN_MONTH_DAY = rf"(?P<m>{_MONTH_RE})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b"
_EN_DAY_MONTH = rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>{_MONTH_RE})\b"
_DAY_RULES: _Rules[date] = [
    (_re(r"(?P<y>\d{4})\s*[-./년]\s*(?P<m>\d{1,2})\s*[-./월]\s*(?P<d>\d{1,2})\s*일?"), _ymd),
    (_re(r"(?<!\d)(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일"), _month_day),
    (_re(rf"\b{_EN_MONTH_DAY}(?:,?\s*(?P<y>\d{{4}}))?"), _month_day),
    (_re(rf"{_EN_DAY_MONTH}(?:,?\s*(?P<y>\d{{4}}))?"), _month_day),
    (_re(r"(?P<which>이번|다음)\s*달\s*(?P<d>\d{1,2})\s*일"), _day_of_month),
    (_re(rf"(?P<n>\d+)\s*일{_KO_AFTER}"), _n_days_later(1)),
    (_re(rf"(?P<n>{'|'.join(_NATIVE_DAYS)}){_KO_AFTER}"), _n_days_later(1)),
    (_re(rf"(?:(?P<n>\d+|{_NATIVE_RE})\s*주일?|일주일){_KO_AFTER}"), _n_days_later(7)),
    (_re(rf"(?P<n>\d+|{_NATIVE_RE})\s*(?:달|개월){_KO_AFTER}"), _months_later),
    (_re(rf"{_EN_IN}(?P<n>{_EN_NUM_RE})\s+days?\b"), _n_days_later(1)),
    (_re(rf"{_EN_IN}(?P<n>{_EN_NUM_RE})\s+weeks?\b"), _n_days_later(7)),
    (_re(rf"{_EN_IN}(?P<n>{_EN_NUM_RE})\s+months?\b"), _months_later),
    (_re(rf"{_KO_WHICH}\s*(?P<wd>[{_KO_WEEKDAYS}])(?:요일|욜)"), _ko_weekday),
    (_re(rf"{_KO_WHICH}\s*말"), _week_end(_SUNDAY)),
    (_re(rf"{_KO_WHICH}(?=$|[^가-힣]|까지|에|안|중|내|쯤|부터)"), _week_end(_FRIDAY)),
    (_re(r"(?<![가-힣])주말"), _week_end(_SUNDAY)),
    (_re(r"월말|이번\s*달\s*말|이달\s*말"), _month_end),
    (_re(rf"\b(?:(?P<which>this|next|coming)\s+)?(?P<wd>{_EN_WEEKDAY_RE})\b"), _en_weekday),
    (_re(r"\b(?:(?P<which>this|next)\s+)?weekend\b"), _week_end(_SUNDAY)),
    (_re(r"\b(?:(?:the\s+)?end\s+of\s+(?:the\s+)?week|eow)\b"), _week_end(_FRIDAY)),
    (_re(r"\b(?P<which>this|next)\s+week\b"), _week_end(_FRIDAY)),
    (_re(r"\b(?:(?:the\s+)?end\s+of\s+(?:the\s+)?month|eom)\b"), _month_end),
    (_re(r"내일\s*모레|\bday\s+after\s+tomorrow\b"), _days_later(2)),
    (_re(r"오늘|\btoday\b"), _days_later(0)),
    (_re(r"내일|(?<![가-힣])낼|\btomorrow\b|\btmrw?\b"), _days_later(1)),
    (_re(r"모레"), _days_later(2)),
    (_re(r"글피"), _days_later(3)),
    (_re(rf"(?P<wd>[{_KO_WEEKDAYS}])(?:요일|욜)"), _ko_weekday),
    (_re(r"(?<!\d)(?P<d>\d{1,2})\s*일(?!\s*(?:뒤|후|있다가|이내|안에|내|동안|간|째|만|전|주))"),
     _day_of_month),
    (_re(r"\bthe\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b"), _day_of_month),
]  # fmt: skip


# ---- clock times ---------------------------------------------------------------------------

_KO_HALVES = "오전|오후|아침|저녁|밤|새벽|낮|점심"
# What may follow "N시" so that "한시적" or "세시봉" are not read as hours.
_AFTER_SI = r"(?=$|[^가-힣]|반|까지|까진|에|엔|쯤|전|정각|께|경|부터|이|가|는|를|로|으로|정도)"


def _ko_clock(m: re.Match[str], ctx: _Ctx) -> _Clock | None:
    before = m.string[m.start() - 1] if m.start() else " "
    if m["h"] in _NATIVE and not m["mer"] and "가" <= before <= "힣":
        return None
    minute = 30 if m["half"] else int(m["min"] or 0)
    return _ko_hour(m["mer"], _num(m["h"]), minute)


def _ko_hour(mer: str | None, hour: int, minute: int) -> _Clock | None:
    if hour > 24 or minute > 59:
        return None
    if hour == 24 or (hour == 12 and mer in ("밤", "저녁")):
        return _Clock(23, 59)
    if mer is None:
        return _Clock(hour, minute, ambiguous=1 <= hour <= 12)
    if mer in ("오전", "아침", "새벽"):
        return _Clock(hour % 12 if hour <= 12 else hour, minute)
    if mer == "밤" and hour <= 5:
        return _Clock(hour, minute, next_day=True)
    return _Clock(hour + 12 if hour < 12 else hour, minute)


def _hhmm(m: re.Match[str], ctx: _Ctx) -> _Clock | None:
    hour, minute = int(m["h"]), int(m["min"])
    if m["ap"]:
        return _en_hour(hour, minute, m["ap"])
    if m["mer"]:
        return _ko_hour(m["mer"], hour, minute)
    return _Clock(hour, minute) if hour <= 23 and minute <= 59 else None


def _ampm(m: re.Match[str], ctx: _Ctx) -> _Clock | None:
    return _en_hour(int(m["h"]), int(m["min"] or 0), m["ap"])


def _en_hour(hour: int, minute: int, ap: str) -> _Clock | None:
    if not 1 <= hour <= 12 or minute > 59:
        return None
    return _Clock(hour % 12 + (12 if ap.lower().startswith("p") else 0), minute)


def _bare_hour(m: re.Match[str], ctx: _Ctx) -> _Clock | None:
    hour = int(m["h"])
    if hour > 23:
        return None
    return _Clock(hour, 0, ambiguous=1 <= hour <= 12)


_AP = r"(?P<ap>[ap]\.?m\.?)(?![a-z])"
_CLOCK_RULES: _Rules[_Clock] = [
    (_re(rf"(?:(?P<mer>{_KO_HALVES})\s*)?(?<!\d)(?P<h>\d{{1,2}}):(?P<min>\d{{2}})(?!\d)(?:\s*{_AP})?"),
     _hhmm),
    (_re(rf"(?:(?P<mer>{_KO_HALVES})\s*)?(?P<h>\d{{1,2}}|{_NATIVE_RE})\s*시(?!간){_AFTER_SI}"
         rf"(?:\s*(?:(?P<half>반)|(?P<min>\d{{1,2}})\s*분))?"), _ko_clock),
    (_re(rf"\b(?P<h>\d{{1,2}})(?:[:.](?P<min>\d{{2}}))?\s*{_AP}"), _ampm),
    (_re(r"\b(?P<h>\d{1,2})\s*o'?clock\b"), _bare_hour),
    (_re(rf"(?:\b(?:at|by|before|until|till|around)\s+|@\s*)(?P<h>\d{{1,2}})\b"
         rf"(?!\s*(?:st|nd|rd|th|[:./%]|days?|hours?|hrs?|minutes?|mins?|weeks?|months?|{_MONTH_RE})\b)"),
     _bare_hour),
    (_re(r"정오|\bnoon\b|\bmidday\b"), lambda m, ctx: _Clock(12, 0)),
    (_re(r"자정|\bmidnight\b"), lambda m, ctx: _Clock(23, 59)),
]  # fmt: skip


# ---- periods: "내일 아침", "tomorrow evening", "EOD" ----------------------------------------

_PERIODS = {
    "새벽": _Period(6, 0, "am"), "아침": _Period(9, 0, "am"), "오전": _Period(12, 0, "am"),
    "점심": _Period(12, 0, "pm"), "오후": _Period(15, 0, "pm"), "퇴근": _Period(18, 0, "pm"),
    "저녁": _Period(19, 0, "pm"), "밤": _Period(21, 0, "pm"), "morning": _Period(9, 0, "am"),
    "afternoon": _Period(15, 0, "pm"), "evening": _Period(19, 0, "pm"),
    "night": _Period(21, 0, "pm"), "tonight": _Period(21, 0, "pm", implies_today=True),
}  # fmt: skip
_EOD = _Period(18, 0, "pm", implies_today=True)


def _period(m: re.Match[str], ctx: _Ctx) -> _Period:
    return _PERIODS[m["p"].lower()]


_PERIOD_RULES: _Rules[_Period] = [
    (_re(r"\b(?:(?:the\s+)?end\s+of\s+(?:the\s+)?(?:business\s+)?day|eod|cob|close\s+of\s+business)\b"),
     lambda m, ctx: _EOD),
    (_re(r"(?:(?<![가-힣])|(?<=오늘|내일|모레|글피))(?P<p>새벽|아침|오전|점심|오후|퇴근|저녁|밤)"
         r"(?=$|[^가-힣]|까지|에|중|쯤|전|때|하기|시간)"), _period),
    (_re(r"\b(?P<p>morning|afternoon|evening|tonight|night)\b"), _period),
]  # fmt: skip
