"""Deadline parsing, shared parts: the context, the value types, the scanner and the vocabulary.

Split from ``deadline.py`` by concept; the rules are in ``deadline_days`` and ``deadline_clock``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import Literal, TypeVar

_Half = Literal["am", "pm"]
_T = TypeVar("_T")
_FRIDAY, _SUNDAY = 4, 6


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
