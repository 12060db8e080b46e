"""Deadline parsing: the day a deadline names ("내일", "금요일", "10월 12일", "월말", "by Friday").

Pure: each rule resolves against ``today`` (a ``_Ctx``); ``scan_day`` is the entry point the
near-miss guard uses to compare two descriptions' days as resolved dates.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

from jarvis.agent_layer.openloop.deadline_vocab import (
    _EN_IN,
    _EN_NUM_RE,
    _EN_WEEKDAY_RE,
    _EN_WEEKDAYS,
    _FRIDAY,
    _KO_AFTER,
    _KO_WEEKDAYS,
    _MONTH_RE,
    _MONTHS,
    _NATIVE_DAYS,
    _NATIVE_RE,
    _SUNDAY,
    _Ctx,
    _Handler,
    _num,
    _re,
    _Rules,
)


class WeekdayDate(date):
    """A day named by its weekday ("금요일", "by Friday", "주말", "this week"). When the
    words name today and their time has already passed ("by Friday 10am" on a Friday
    evening), the same weekday next week is meant (see `deadline._combine`)."""


def _weekly(day: date) -> WeekdayDate:
    return WeekdayDate.fromordinal(day.toordinal())


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
    return _weekly(_week_day(ctx, m.groupdict().get("which"), _KO_WEEKDAYS.index(m["wd"])))


def _en_weekday(m: re.Match[str], ctx: _Ctx) -> date:
    return _weekly(_week_day(ctx, m.groupdict().get("which"), _EN_WEEKDAYS[m["wd"].lower()]))


def _week_end(weekday: int) -> _Handler[date]:
    """Friday ("end of week") or Sunday ("weekend"): the next one, or next week's."""

    def handler(m: re.Match[str], ctx: _Ctx) -> date:
        if (m.groupdict().get("which") or "").lower() in ("다음", "담", "next"):
            return _monday(ctx) + timedelta(days=7 + weekday)
        return _weekly(_next_weekday(ctx, weekday))

    return handler


def _month_end(m: re.Match[str], ctx: _Ctx) -> date:
    last = calendar.monthrange(ctx.today.year, ctx.today.month)[1]
    return ctx.today.replace(day=last)


def _year_end(m: re.Match[str], ctx: _Ctx) -> date:
    return date(ctx.today.year, 12, 31)


def _next_month_end(m: re.Match[str], ctx: _Ctx) -> date:
    first = _add_months(ctx.today.replace(day=1), 1)
    return first.replace(day=calendar.monthrange(first.year, first.month)[1])


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


# "3.5시간", "1/2 cup", "2.5%" are no dates: a month/day form is followed by none of these.
# A counter counts only as a whole word: "3/2 개강" is a date, "3/2개" is not.
_NOT_A_UNIT = (
    r"(?!\s*(?:(?:시간|시|분|초|배)|(?:점|개|명|장|부|만|억|원|달러)(?![가-힣])"
    r"|(?:kg|km|cm|mm|h|hours?|x|ml|l|g)(?![a-z])))"
)
_KO_WHICH = r"(?<![가-힣])(?P<which>다다음|이번|다음|담)\s*주"
_EN_MONTH_DAY = rf"(?P<m>{_MONTH_RE})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b"
_EN_DAY_MONTH = rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>{_MONTH_RE})\b"
_DAY_RULES: _Rules[date] = [
    (_re(r"(?P<y>\d{4})\s*[-./년]\s*(?P<m>\d{1,2})\s*[-./월]\s*(?P<d>\d{1,2})\s*일?"), _ymd),
    (_re(r"(?<!\d)(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일"), _month_day),
    (_re(rf"(?<![\d./-])(?P<m>\d{{1,2}})\s*[/.]\s*(?P<d>\d{{1,2}})(?![\d%]|[./]\d){_NOT_A_UNIT}"),
     _month_day),
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
    (_re(r"(?:다음|담|내)\s*달\s*말|\bend\s+of\s+next\s+month\b"), _next_month_end),
    (_re(r"월말|이번\s*달\s*말|이달\s*말"), _month_end),
    (_re(r"연말|년말|올해\s*말|\b(?:(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?year|eoy)\b"),
     _year_end),
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
    (_re(r"(?<!\d)(?P<d>\d{1,2})\s*일(?!\s*(?:뒤|후|있다가|이내|안에|내|동안|간|째|차|만|전|주))"),
     _day_of_month),
    (_re(r"\bthe\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b"), _day_of_month),
]  # fmt: skip
