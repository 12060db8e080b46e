"""Deadline forms added for open loops: numeric month/day, period ends, counters that are no dates.

Pure: `now` is given. One row per form (see docs/open-loops.md "Deadlines").
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from jarvis.agent_layer.openloop.deadline import parse_deadline

SEOUL = ZoneInfo("Asia/Seoul")
THU = datetime(2026, 10, 15, 9, 0, tzinfo=SEOUL)


@pytest.mark.parametrize(
    ("text", "due", "inferred"),
    [
        # numeric month/day: the next such date, today included
        ("10/20까지 등록금", "2026-10-20 18:00", True),
        ("10.25까지 원서 접수", "2026-10-25 18:00", True),
        ("3/2 개강 준비", "2027-03-02 18:00", True),
        ("11/4 오후 2시 면접", "2026-11-04 14:00", False),
        # period ends
        ("연말까지 연차 쓰기", "2026-12-31 18:00", True),
        ("올해 말까지", "2026-12-31 18:00", True),
        ("by the end of the year", "2026-12-31 18:00", True),
        ("다음 달 말까지 이사", "2026-11-30 18:00", True),
        ("by end of next month", "2026-11-30 18:00", True),
        ("end of month", "2026-10-31 18:00", True),
        # English clock idioms
        ("at half past two", "2026-10-15 14:30", True),
        ("quarter to five", "2026-10-15 16:45", True),
        ("quarter past nine tomorrow", "2026-10-16 09:15", True),
    ],
)
def test_deadline_forms(text: str, due: str, inferred: bool) -> None:
    found = parse_deadline(text, THU, SEOUL)
    assert found is not None
    assert (found.due.strftime("%Y-%m-%d %H:%M"), found.inferred) == (due, inferred)


@pytest.mark.parametrize(
    "text",
    [
        "운동 3일차 루틴 하기",  # a day count of a programme, not the 3rd of a month
        "명함 100장 주문",
        "손님 12명 도시락",
        "3번째 회의록 정리",
        "1.5배 속도로 강의 듣기",
        "3.5시간 공부",
        "5/10 점 만점 채점",
    ],
)
def test_counters_and_ordinals_are_no_dates(text: str) -> None:
    assert parse_deadline(text, THU, SEOUL) is None
