"""The judge output parser: the documented line format, tolerated variants, never raising."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from jarvis.agent_layer.openloop.judge_parse import fill_due, parse_judge_output
from jarvis.agent_layer.openloop.openloop_types import CandidateLoop, JudgeFrame

SEOUL = ZoneInfo("Asia/Seoul")
NOW = datetime(2026, 10, 11, 9, 0, tzinfo=SEOUL)


def ms(year: int, month: int, day: int, hour: int, minute: int, tz: ZoneInfo = SEOUL) -> int:
    return int(datetime(year, month, day, hour, minute, tzinfo=tz).timestamp() * 1000)


def test_documented_format() -> None:
    frame = parse_judge_output(
        "새 약속:\n"
        "- 보고서 보내기 @2026-10-16 15:00 (근거: 내일 오후 3시까지 보고서 보내야 해)\n"
        "- 로그 확인하기 (근거: 배포 전에 로그 좀 확인해줘)\n"
        "닫기: [1], [3]\n",
        SEOUL,
    )
    assert frame.new == [
        CandidateLoop(
            description="보고서 보내기",
            evidence="내일 오후 3시까지 보고서 보내야 해",
            due_ms=ms(2026, 10, 16, 15, 0),
        ),
        CandidateLoop(description="로그 확인하기", evidence="배포 전에 로그 좀 확인해줘"),
    ]
    assert frame.closed == [1, 3]


@pytest.mark.parametrize(
    ("line", "description", "evidence"),
    [
        ("call mom (evidence: call mom tonight)", "call mom", "call mom tonight"),
        ("call mom (source: call mom tonight)", "call mom", "call mom tonight"),
        ("로그 확인 （근거： 로그 봐줘）", "로그 확인", "로그 봐줘"),  # full-width
        ('로그 확인 (근거: "로그 봐줘")', "로그 확인", "로그 봐줘"),
        ("* 로그 확인", "로그 확인", None),
        ("2) 로그 확인", "로그 확인", None),
        ("• 로그   확인  ", "로그 확인", None),
    ],
)
def test_new_line_variants(line: str, description: str, evidence: str | None) -> None:
    [candidate] = parse_judge_output(line, SEOUL).new
    assert (candidate.description, candidate.evidence) == (description, evidence)


def test_due_is_wall_time_in_the_users_timezone() -> None:
    utc = ZoneInfo("UTC")
    [candidate] = parse_judge_output("x @2026-10-12T09:30", utc).new
    assert candidate.due_ms == ms(2026, 10, 12, 9, 30, tz=utc)


def test_date_only_due_is_1800_and_inferred() -> None:
    [candidate] = parse_judge_output("발표 준비 @2026-10-20", SEOUL).new
    assert (candidate.due_ms, candidate.due_inferred) == (ms(2026, 10, 20, 18, 0), True)


def test_invalid_due_is_dropped_the_loop_kept() -> None:
    [candidate] = parse_judge_output("발표 준비 @2026-13-40 25:00", SEOUL).new
    assert (candidate.description, candidate.due_ms) == ("발표 준비", None)


@pytest.mark.parametrize(
    ("text", "closed"),
    [
        ("닫기: [1], [3]", [1, 3]),
        ("close: 1, 3", [1, 3]),
        ("closed_loops: [2]", [2]),
        ("닫기: 2번", [2]),
        ("**닫기:** [1]", [1]),
        ("닫기: [1] 보고서 2부 보내기", [1]),  # bracketed numbers only, the 2 is content
        ("닫을 약속:\n- [2] 보고서 보내기\n[4] 로그", [2, 4]),
        ("닫기: [1], [1]", [1]),
        ("닫기: 없음", []),
        ("closed: none", []),
    ],
)
def test_closed_numbers(text: str, closed: list[int]) -> None:
    frame = parse_judge_output(text, SEOUL)
    assert frame.closed == closed
    assert frame.new == []


def test_sections_switch_and_junk_is_ignored() -> None:
    frame = parse_judge_output(
        "[1] 기존 약속 (기한 2026-10-12 10:00)\n"  # an echo of the numbered list
        "없음\n"
        "분석:\n"
        "사용자는 보고서를 언급했다\n"  # under an unknown header: not a loop
        "open_loops:\n"
        "- 보고서 보내기\n"
        "closed:\n"
        "[2]\n"
        "new: 회의 준비\n",
        SEOUL,
    )
    assert [c.description for c in frame.new] == ["보고서 보내기", "회의 준비"]
    assert frame.closed == [2]


@pytest.mark.parametrize(
    "text", ["", "\n\n", "@@@ (근거:", "닫기: [", ":::", "- @2026-10-10 10:00", "새 약속: 없음"]
)
def test_malformed_output_never_raises(text: str) -> None:
    frame = parse_judge_output(text, SEOUL)
    assert frame.new == [] and frame.closed == []


# ---- filling a dropped due from the user's words ---------------------------------------------


def test_fill_due_reads_each_candidates_own_evidence() -> None:
    frame = JudgeFrame(
        new=[
            CandidateLoop(description="보고서 보내기", evidence="보고서는 내일 오후 3시까지"),
            CandidateLoop(description="회의 준비", evidence="회의 준비는 금요일까지"),
            CandidateLoop(description="이미 기한", due_ms=1),
        ]
    )
    filled = fill_due(frame, "보고서는 내일 오후 3시까지, 회의 준비는 금요일까지", NOW, SEOUL)
    assert [(c.due_ms, c.due_inferred) for c in filled.new] == [
        (ms(2026, 10, 12, 15, 0), False),
        (ms(2026, 10, 16, 18, 0), True),
        (1, False),
    ]


def test_fill_due_uses_the_whole_input_for_a_single_candidate_only() -> None:
    single = JudgeFrame(new=[CandidateLoop(description="보고서 보내기")])
    [candidate] = fill_due(single, "내일 3시까지 보고서 보내야 해", NOW, SEOUL).new
    assert (candidate.due_ms, candidate.due_inferred) == (ms(2026, 10, 12, 15, 0), True)
    two = JudgeFrame(
        new=[CandidateLoop(description="보고서 보내기"), CandidateLoop(description="회의 준비")]
    )
    filled = fill_due(two, "내일 3시까지 보고서 보내고 회의 준비도 해야 해", NOW, SEOUL)
    assert [c.due_ms for c in filled.new] == [None, None]


@pytest.mark.parametrize(
    ("text", "numbers", "phrases"),
    [
        ("닫기: 보고서 보내기", [], ["보고서 보내기"]),
        ('closed_loops: "send the report"', [], ["send the report"]),
        ("닫기:\n- 보고서 보내기\n- [2] 로그 확인", [2], ["보고서 보내기"]),
        ("닫기: [1] 보고서 2부", [1], []),  # a number wins: the words only describe it
        ("닫기: 없음", [], []),
        ("close: none", [], []),
    ],
)
def test_loops_to_close_by_number_or_phrase(
    text: str, numbers: list[int], phrases: list[str]
) -> None:
    """Seed 001: the judge names a loop to close by its number (or a phrase)."""
    frame = parse_judge_output(text, SEOUL)
    assert (frame.closed, frame.closed_phrases) == (numbers, phrases)
