"""Deadline parsing: clock times ("오후 3시 반", "15:00", "3pm", "정오") and periods ("EOD")."""

from __future__ import annotations

import re

from jarvis.agent_layer.openloop.deadline_vocab import (
    _EN_NUM_RE,
    _MONTH_RE,
    _NATIVE,
    _NATIVE_RE,
    _Clock,
    _Ctx,
    _Handler,
    _num,
    _Period,
    _re,
    _Rules,
)

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


def _past(minutes: int) -> _Handler[_Clock]:
    """ "half past two" → 2:30, "quarter to five" → 4:45 (on a 12-hour dial, so ambiguous)."""

    def handler(m: re.Match[str], ctx: _Ctx) -> _Clock | None:
        hour = _num(m["h"])
        if not 1 <= hour <= 12:
            return None
        if minutes < 0:
            hour = hour - 1 or 12
        return _Clock(hour, minutes % 60, ambiguous=True)

    return handler


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
    (_re(rf"\bhalf\s+past\s+(?P<h>{_EN_NUM_RE})\b"), _past(30)),
    (_re(rf"\bquarter\s+past\s+(?P<h>{_EN_NUM_RE})\b"), _past(15)),
    (_re(rf"\bquarter\s+to\s+(?P<h>{_EN_NUM_RE})\b"), _past(-15)),
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
