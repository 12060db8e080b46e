"""The KO/EN deadline parser, one row per rule of deadline.py's documented defaults."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from jarvis.agent_layer.openloop.deadline import parse_deadline

SEOUL = ZoneInfo("Asia/Seoul")
SUN = datetime(2026, 10, 11, 9, 0, tzinfo=SEOUL)  # a Sunday morning
FRI = datetime(2026, 10, 16, 10, 0, tzinfo=SEOUL)  # a Friday morning
LATE = datetime(2026, 10, 11, 23, 50, tzinfo=SEOUL)  # just before midnight
EVENING = datetime(2026, 10, 16, 20, 0, tzinfo=SEOUL)  # Friday after the working day

ROWS = [
    # Korean days
    ("내일 오후 3시까지 분기 보고서 초안을 팀장님께 보내야 해", SUN, "2026-10-12 15:00", False),
    ("내일까지 보내야 해", SUN, "2026-10-12 18:00", True),
    ("모레까지", SUN, "2026-10-13 18:00", True),
    ("내일모레 보내줄게", SUN, "2026-10-13 18:00", True),
    ("글피", SUN, "2026-10-14 18:00", True),
    ("오늘까지", SUN, "2026-10-11 18:00", True),
    ("오늘까지", LATE, "2026-10-11 23:59", True),
    ("이번 주 금요일까지", SUN, "2026-10-16 18:00", True),
    ("이번 주 금요일", datetime(2026, 10, 17, 9, 0, tzinfo=SEOUL), "2026-10-23 18:00", True),
    ("다음 주 금요일까지", SUN, "2026-10-16 18:00", True),
    ("다음 주 금요일까지", FRI, "2026-10-23 18:00", True),
    ("담주 월요일 10시", FRI, "2026-10-19 10:00", True),
    ("금요일까지", FRI, "2026-10-16 18:00", True),
    ("금요일까지", EVENING, "2026-10-16 23:59", True),
    ("이번 주말에 대청소", FRI, "2026-10-18 18:00", True),
    ("다음 주말", SUN, "2026-10-18 18:00", True),
    ("다음 주까지", SUN, "2026-10-16 18:00", True),
    ("이번 주 안에", FRI, "2026-10-16 18:00", True),
    ("월말까지 정산", SUN, "2026-10-31 18:00", True),
    ("3일 뒤에", SUN, "2026-10-14 18:00", True),
    ("이틀 후", FRI, "2026-10-18 18:00", True),
    ("일주일 뒤", SUN, "2026-10-18 18:00", True),
    ("10월 12일까지", SUN, "2026-10-12 18:00", True),
    ("10월 12일까지", FRI, "2027-10-12 18:00", True),
    ("12일까지", SUN, "2026-10-12 18:00", True),
    ("12일까지", FRI, "2026-11-12 18:00", True),
    ("2026-10-20 10:00", SUN, "2026-10-20 10:00", False),
    # Korean times
    ("2시간 뒤", SUN, "2026-10-11 11:00", False),
    ("30분 후에 전화", LATE, "2026-10-12 00:20", False),
    ("한 시간 반 뒤", FRI, "2026-10-16 11:30", False),
    ("오전 10시 반", SUN, "2026-10-11 10:30", False),
    ("오후 3시 30분", SUN, "2026-10-11 15:30", False),
    ("저녁 7시", SUN, "2026-10-11 19:00", False),
    ("밤 11시", SUN, "2026-10-11 23:00", False),
    ("새벽 2시", SUN, "2026-10-12 02:00", False),
    ("내일 밤 1시", SUN, "2026-10-13 01:00", False),
    ("아침 7시", LATE, "2026-10-12 07:00", False),
    ("내일 정오", SUN, "2026-10-12 12:00", False),
    ("자정까지", SUN, "2026-10-11 23:59", False),
    ("15시까지", SUN, "2026-10-11 15:00", False),
    ("내일 3시", SUN, "2026-10-12 15:00", True),
    ("내일 9시", SUN, "2026-10-12 09:00", True),
    ("세 시까지", SUN, "2026-10-11 15:00", True),
    ("3시까지", LATE, "2026-10-12 15:00", True),
    ("오늘 9시", FRI, "2026-10-16 21:00", True),
    ("오늘 3시", EVENING, "2026-10-16 15:00", True),
    ("오늘 오전 9시", FRI, "2026-10-16 09:00", False),
    ("저녁에 7시쯤", SUN, "2026-10-11 19:00", False),
    ("내일 아침에", SUN, "2026-10-12 09:00", True),
    ("오늘 저녁까지", SUN, "2026-10-11 19:00", True),
    ("오늘 저녁까지", LATE, "2026-10-11 23:59", True),
    ("퇴근 전까지", SUN, "2026-10-11 18:00", True),
    # English
    ("today", SUN, "2026-10-11 18:00", True),
    ("tonight", SUN, "2026-10-11 21:00", True),
    ("tonight at 8", SUN, "2026-10-11 20:00", False),
    ("tomorrow 3pm", SUN, "2026-10-12 15:00", False),
    ("tomorrow at 15:00", SUN, "2026-10-12 15:00", False),
    ("tomorrow at 3", SUN, "2026-10-12 15:00", True),
    ("tomorrow morning", SUN, "2026-10-12 09:00", True),
    ("tomorrow evening", SUN, "2026-10-12 19:00", True),
    ("by Friday", SUN, "2026-10-16 18:00", True),
    ("by Friday", FRI, "2026-10-16 18:00", True),
    ("next Monday", FRI, "2026-10-19 18:00", True),
    ("next Friday", FRI, "2026-10-23 18:00", True),
    ("this weekend", FRI, "2026-10-18 18:00", True),
    ("by end of day", FRI, "2026-10-16 18:00", True),
    ("EOD", EVENING, "2026-10-16 23:59", True),
    ("tomorrow EOD", FRI, "2026-10-17 18:00", True),
    ("end of week", SUN, "2026-10-16 18:00", True),
    ("end of the month", FRI, "2026-10-31 18:00", True),
    ("in 2 hours", SUN, "2026-10-11 11:00", False),
    ("in half an hour", LATE, "2026-10-12 00:20", False),
    ("in 3 days", SUN, "2026-10-14 18:00", True),
    ("in a week", SUN, "2026-10-18 18:00", True),
    ("Oct 12", SUN, "2026-10-12 18:00", True),
    ("12 October at 10:30am", SUN, "2026-10-12 10:30", False),
    ("the 15th", FRI, "2026-11-15 18:00", True),
    ("at noon", SUN, "2026-10-11 12:00", False),
    ("by midnight", SUN, "2026-10-11 23:59", False),
    ("5 pm", LATE, "2026-10-12 17:00", False),
]


@pytest.mark.parametrize(("text", "now", "due", "inferred"), ROWS)
def test_deadline(text: str, now: datetime, due: str, inferred: bool) -> None:
    found = parse_deadline(text, now, SEOUL)
    assert found is not None
    assert found.due.strftime("%Y-%m-%d %H:%M") == due
    assert found.inferred is inferred
    assert found.due.tzinfo is not None


@pytest.mark.parametrize(
    "text",
    [
        "보고서 2부 보내기",
        "한시적으로 운영해",  # 한시 is no hour
        "보고서 보낼게",  # 낼 inside 보낼 is no 내일
        "다음 주제로 넘어가자",  # 다음 주제 is no next week
        "3시간 동안 회의",  # a duration, not a deadline
        "send the report",
        "",
    ],
)
def test_no_deadline(text: str) -> None:
    assert parse_deadline(text, SUN, SEOUL) is None


def test_matched_is_the_users_words() -> None:
    found = parse_deadline("분기 보고서는 내일 오후 3시까지 보내야 해", SUN, SEOUL)
    assert found is not None and found.matched == "내일 오후 3시"


def test_now_in_another_zone_is_read_in_the_users_zone() -> None:
    utc_now = SUN.astimezone(ZoneInfo("UTC"))  # 00:00 UTC is 09:00 in Seoul
    found = parse_deadline("오늘까지", utc_now, SEOUL)
    assert found is not None and found.due == datetime(2026, 10, 11, 18, 0, tzinfo=SEOUL)


def test_relative_hours_are_absolute_across_a_dst_jump() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    before = datetime(2026, 10, 25, 1, 30, tzinfo=berlin)  # clocks go back at 03:00
    found = parse_deadline("in 2 hours", before, berlin)
    # Same-zone datetime subtraction is wall time; the elapsed time is in the timestamps.
    assert found is not None
    assert found.due.timestamp() - before.timestamp() == timedelta(hours=2).total_seconds()


# ---- DST nights: the clock is injected; ambiguous and missing local times resolve forward ----

NEW_YORK = ZoneInfo("America/New_York")
BERLIN = ZoneInfo("Europe/Berlin")


def _local(zone: ZoneInfo, *fields: int, fold: int = 0) -> datetime:
    return datetime(*fields, tzinfo=zone, fold=fold)  # type: ignore[misc]


def _minutes_ahead(due: datetime, now: datetime) -> float:
    return (due.timestamp() - now.timestamp()) / 60


@pytest.mark.parametrize(
    ("now", "text", "wall", "ahead"),
    [
        # New York falls back at 02:00 EDT on 2026-11-01: 01:00–01:59 happens twice.
        (_local(NEW_YORK, 2026, 11, 1, 1, 15, fold=1), "at 1:45am", "01:45", 30),  # 2nd pass
        (_local(NEW_YORK, 2026, 11, 1, 1, 50, fold=0), "at 1:45am", "01:45", 55),  # 1st, passed
        (_local(NEW_YORK, 2026, 11, 1, 1, 15, fold=0), "at 1:45am", "01:45", 30),  # 1st pass
        (_local(NEW_YORK, 2026, 11, 1, 1, 15, fold=1), "오전 1시 45분까지", "01:45", 30),
        # Berlin falls back at 03:00 CEST on 2026-10-25: 02:00–02:59 happens twice.
        (_local(BERLIN, 2026, 10, 25, 2, 10, fold=1), "at 2:40am", "02:40", 30),
        (_local(BERLIN, 2026, 10, 25, 2, 50, fold=0), "by 2:40 am", "02:40", 50),
    ],
)
def test_an_ambiguous_local_time_on_the_fall_back_night_is_never_in_the_past(
    now: datetime, text: str, wall: str, ahead: int
) -> None:
    deadline = parse_deadline(text, now, now.tzinfo)  # type: ignore[arg-type]
    assert deadline is not None
    assert deadline.due.strftime("%H:%M") == wall
    assert _minutes_ahead(deadline.due, now) == ahead


@pytest.mark.parametrize(
    ("now", "text", "wall", "ahead"),
    [
        # New York springs forward at 02:00 EST on 2026-03-08: 02:00–02:59 never happens.
        (_local(NEW_YORK, 2026, 3, 8, 1, 30), "at 2:30am", "2026-03-08 03:30", 60),
        (_local(NEW_YORK, 2026, 3, 7, 22, 0), "내일 오전 2시 30분", "2026-03-08 03:30", 270),
        # Berlin springs forward at 02:00 CET on 2026-03-29.
        (_local(BERLIN, 2026, 3, 29, 1, 0), "at 2:15am", "2026-03-29 03:15", 75),
    ],
)
def test_a_local_time_in_the_spring_forward_gap_moves_past_the_gap(
    now: datetime, text: str, wall: str, ahead: int
) -> None:
    deadline = parse_deadline(text, now, now.tzinfo)  # type: ignore[arg-type]
    assert deadline is not None
    assert deadline.due.strftime("%Y-%m-%d %H:%M") == wall
    assert _minutes_ahead(deadline.due, now) == ahead
    assert deadline.due.astimezone(UTC).astimezone(now.tzinfo) == deadline.due  # a real time
