"""Explicit facts in a loop description: clock time, half of the day, day, counts and amounts.

Times and days are read with the deadline parser's own rules, so "3시 반" and "3시 30분",
"정오" and "낮 12시", "낼" and "내일", "10/20" and "10월 20일" are one fact each. A day is kept
as the date it resolves to: against ``today`` when the caller knows it, else against each day
of a reference week, so "내일" and "금요일" (equal on one weekday only) never pass for one day
without a ``today``. Each fact remembers its span, so the words the guard reads skip it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from jarvis.agent_layer.openloop import tables as T
from jarvis.agent_layer.openloop.deadline_clock import _CLOCK_RULES, _PERIOD_RULES
from jarvis.agent_layer.openloop.deadline_days import _DAY_RULES
from jarvis.agent_layer.openloop.deadline_vocab import _Ctx, _scan, _Span

# Any week will do; only "does the resolved date depend on today?" matters.
_REFERENCE_WEEK = tuple(date(2026, 1, 5) + timedelta(days=i) for i in range(7))
_UTC = ZoneInfo("UTC")
# A clock time with one of these words is on a 24-hour dial ("오후 3시", "3pm", "정오").
_HALF_MARK_RE = re.compile(
    "|".join(sorted(T.HALF_WORDS, key=len, reverse=True))
    + r"|낮|점심|[ap]\.?m\b|정오|자정|noon|midnight"
)
_NUMBER_RE = re.compile(
    rf"(?P<cur>[{re.escape(T.CURRENCY_SIGNS)}])?\s*(?<![\d.])(?P<num>\d+(?:,\d{{3}})*(?:\.\d+)?)"
    r"(?:\s*(?P<unit>만\s*원|천\s*원|억\s*원|[a-z]+|[가-힣]+))?"
)
_WORD_NUMBER_RE = re.compile(
    r"(?<![가-힣a-z])(?P<word>"
    + "|".join(sorted([*T.EN_NUMBER_WORDS, *T.KO_NUMBER_WORDS], key=len, reverse=True))
    + r")\s+(?P<unit>[a-z]+|[가-힣]+)"
)


@dataclass(frozen=True)
class Time:
    hour: int
    minute: int
    fixed_half: bool  # "오후 3시", "15:00", "3pm": the hour is on a 24-hour dial

    def label(self) -> str:
        return (
            f"{self.hour:02d}:{self.minute:02d}"
            if self.fixed_half
            else (f"{self.hour % 12 or 12}:{self.minute:02d}")
        )

    def agrees(self, other: Time) -> bool:
        if self.minute != other.minute:
            return False
        if self.fixed_half and other.fixed_half:
            return self.hour == other.hour
        return self.hour % 12 == other.hour % 12


@dataclass
class Facts:
    time: Time | None = None
    half: str | None = None  # am / pm, from a period word or a fixed time
    day: tuple[date, ...] | None = None
    day_text: str = ""
    numbers: dict[str, set[str]] = field(default_factory=dict)  # unit → values
    spans: list[_Span] = field(default_factory=list)


def read_facts(text: str, today: date | None = None) -> Facts:
    text = unicodedata.normalize("NFC", text)
    low = text.casefold()
    facts = Facts()
    _read_day(low, today, facts)
    _read_time(low, facts)
    _read_numbers(low, facts)
    return facts


def _read_day(low: str, today: date | None, facts: Facts) -> None:
    days = []
    for ref in (today,) if today is not None else _REFERENCE_WEEK:
        taken: list[_Span] = []
        ctx = _Ctx(now=datetime(ref.year, ref.month, ref.day, 9, tzinfo=_UTC))
        found = _scan(_DAY_RULES, low, ctx, taken)
        if found is None:
            return
        days.append(found)
        if not facts.spans or taken[0] not in facts.spans:
            facts.spans += taken
    facts.day = tuple(days)
    start, end = facts.spans[-1]
    facts.day_text = low[start:end]


def _read_time(low: str, facts: Facts) -> None:
    ctx = _Ctx(now=datetime(2026, 1, 5, 9, tzinfo=_UTC))
    taken = list(facts.spans)
    clock = _scan(_CLOCK_RULES, low, ctx, taken)
    if clock is not None:
        start, end = taken[-1]
        marked = bool(_HALF_MARK_RE.search(low[start:end]))
        fixed = not clock.ambiguous and (marked or clock.hour > 12 or clock.hour == 0)
        hour = (clock.hour + 24 * clock.next_day) % 24
        facts.time = Time(hour, clock.minute, fixed)
        facts.half = ("am" if hour < 12 else "pm") if fixed else None
        facts.spans.append((start, end))
    taken = list(facts.spans)
    period = _scan(_PERIOD_RULES, low, ctx, taken)
    if period is not None:
        facts.spans.append(taken[-1])
        facts.half = facts.half or period.half


def _read_numbers(low: str, facts: Facts) -> None:
    for m in _NUMBER_RE.finditer(low):
        if _overlaps(m.span("num"), facts.spans):
            continue
        kind, value = _number_kind(m["cur"], m["num"], m["unit"] or "", low, m.start("num"))
        facts.numbers.setdefault(kind, set()).add(value)
        facts.spans.append(m.span())
    for m in _WORD_NUMBER_RE.finditer(low):
        if _overlaps(m.span("word"), facts.spans):
            continue
        word = m["word"]
        number = T.EN_NUMBER_WORDS.get(word) or T.KO_NUMBER_WORDS.get(word, 0)
        kind, value = _number_kind(None, str(number), m["unit"], low, m.start())
        if kind != "n:":
            facts.numbers.setdefault(kind, set()).add(value)
            facts.spans.append(m.span())


def _number_kind(cur: str | None, num: str, unit: str, low: str, at: int) -> tuple[str, str]:
    value = num.replace(",", "")
    unit = unit.replace(" ", "")
    if cur or unit.startswith(T.MONEY_UNITS):
        scale = {"만": "0000", "천": "000", "억": "00000000"}.get(unit[:1], "")
        return "money", value + scale
    for counter in T.KO_COUNTERS:
        if unit.startswith(counter):
            return f"n:{counter}", value
    if unit.startswith("시간") or unit.startswith(("hour", "hr")):
        return "hours", value
    if unit.startswith("분") or unit.startswith(("minute", "min")):
        return "minutes", value
    if unit and unit.isascii():
        return f"n:{unit.rstrip('s')}", value
    if unit:
        return f"n:{unit[:1]}", value
    # A bare number: "Q3", "v2", "10k". What stands before it is its unit.
    before = low[max(0, at - 1) : at]
    return f"n:{before.strip()}", value


def _overlaps(span: _Span, spans: list[_Span]) -> bool:
    return any(span[0] < e and s < span[1] for s, e in spans)
