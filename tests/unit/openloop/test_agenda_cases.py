"""Issue 24 item 6 as tables: a weekday already past today, a repeated promise, an ambiguous
dismissal and a one-word item — each a pure function (deadline, same loop / reopen, dismissal,
grounding) plus `apply_judgement`, which puts them together."""

from __future__ import annotations

import itertools
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from jarvis.agent_layer.openloop.deadline import parse_deadline
from jarvis.agent_layer.openloop.dismissal import answer_choice
from jarvis.agent_layer.openloop.grounding import promise_shaped, quote
from jarvis.agent_layer.openloop.openloop_types import (
    AgendaChange,
    CandidateLoop,
    JudgeFrame,
    LoopScope,
    OpenLoop,
    OpenLoopConfig,
    apply_judgement,
    close_loop,
    expire,
    reopen_loop,
)

SEOUL = ZoneInfo("Asia/Seoul")
FRI_EVENING = datetime(2026, 10, 16, 20, 0, tzinfo=SEOUL)
FRI_MORNING = datetime(2026, 10, 16, 8, 0, tzinfo=SEOUL)
SUN_NIGHT = datetime(2026, 10, 18, 22, 30, tzinfo=SEOUL)
NOW = int(FRI_EVENING.timestamp() * 1000)
HOUR_MS = 3600 * 1000
DAY_MS = 24 * HOUR_MS
CFG = OpenLoopConfig()
SCOPE = LoopScope(agent_id="main", user_id="u", session_id="s1")


# ---- a weekday already past today is next week's --------------------------------------------


@pytest.mark.parametrize(
    ("words", "now", "due"),
    [
        ("by friday 10am", FRI_EVENING, "2026-10-23 10:00"),
        ("send it by Friday 10 am", FRI_EVENING, "2026-10-23 10:00"),
        ("this friday at 10:30", FRI_EVENING, "2026-10-23 10:30"),
        ("friday morning", FRI_EVENING, "2026-10-23 09:00"),
        ("금요일 오전 10시까지", FRI_EVENING, "2026-10-23 10:00"),
        ("이번 주 금요일 아침까지", FRI_EVENING, "2026-10-23 09:00"),
        ("금요일 9시", datetime(2026, 10, 16, 22, 0, tzinfo=SEOUL), "2026-10-23 09:00"),
        ("주말 오후 3시", SUN_NIGHT, "2026-10-25 15:00"),
        # Not yet passed today: today.
        ("by friday 10am", FRI_MORNING, "2026-10-16 10:00"),
        ("금요일 오후 9시까지", FRI_EVENING, "2026-10-16 21:00"),
        ("금요일 10시", FRI_EVENING, "2026-10-16 22:00"),
        # A day without a time still runs until midnight: today.
        ("금요일까지", FRI_EVENING, "2026-10-16 23:59"),
        ("by friday", FRI_EVENING, "2026-10-16 23:59"),
        # "오늘" names today itself: it stays today (shown overdue, see the expiry rows).
        ("오늘 오전 10시까지", FRI_EVENING, "2026-10-16 10:00"),
    ],
)
def test_a_weekday_already_past_today_is_next_weeks(words: str, now: datetime, due: str) -> None:
    found = parse_deadline(words, now, SEOUL)
    assert found is not None and found.due.strftime("%Y-%m-%d %H:%M") == due


def loop(loop_id: str, description: str, **fields: object) -> OpenLoop:
    return OpenLoop.model_validate(
        {"id": loop_id, "agent_id": "main", "user_id": "u", "session_id": "s1",
         "description": description, "created_ms": NOW, "updated_ms": NOW, **fields}
    )  # fmt: skip


@pytest.mark.parametrize(
    ("due_ms", "opened_ms", "hours_later", "expired"),
    [
        (NOW - 10 * HOUR_MS, None, 5, False),  # stated already overdue: shown for 6 h
        (NOW - 10 * HOUR_MS, None, 7, True),
        (NOW + HOUR_MS, None, 7, False),  # due + 6 h, as before
        (NOW + HOUR_MS, None, 8, True),
        (NOW - 30 * DAY_MS, NOW + DAY_MS, 24 + 5, False),  # reopened a day later: from then
    ],
)
def test_no_loop_is_born_expired(
    due_ms: int, opened_ms: int | None, hours_later: int, expired: bool
) -> None:
    one = loop("a", "보고서 보내기", due_ms=due_ms, opened_ms=opened_ms)
    assert bool(expire([one], NOW + hours_later * HOUR_MS, CFG)) is expired


# ---- a repeated promise never piles up rows ---------------------------------------------------


def frame(user_input: str, *candidates: CandidateLoop) -> JudgeFrame:
    return JudgeFrame(new=list(candidates))


def apply(
    open_loops: list[OpenLoop],
    judged: JudgeFrame,
    user_input: str,
    closed: list[OpenLoop] | None = None,
    asked: list[str] | None = None,
    now: int = NOW,
) -> AgendaChange:
    counter = itertools.count(1)
    return apply_judgement(
        open_loops, judged, user_input, now, CFG, scope=SCOPE,
        new_id=lambda: f"new{next(counter)}", tz=SEOUL, closed_loops=closed or [],
        asked=asked or [],
    )  # fmt: skip


SEND = CandidateLoop(description="send the report to Dana", evidence="send the report to Dana")
SAID = "I have to send the report to Dana by friday 10am"


def test_said_four_times_is_one_row() -> None:
    rows: list[OpenLoop] = []
    for _ in range(4):
        change = apply(rows, frame(SAID, SEND), SAID)
        rows = [*change.created, *[lp for lp in rows if lp.id not in {m.id for m in change.noted}],
                *change.noted]  # fmt: skip
    assert [lp.id for lp in rows] == ["new1"]


@pytest.mark.parametrize("status", ["expired", "dismissed", "done"])
def test_a_promise_said_again_reopens_its_closed_loop(status: str) -> None:
    old = close_loop(loop("old", "send the report to Dana", due_ms=NOW - DAY_MS), status,  # type: ignore[arg-type]
                     "due_passed", NOW - HOUR_MS)  # fmt: skip
    new_due = CandidateLoop(description="send the report to Dana", due_ms=NOW + 2 * DAY_MS)
    change = apply([], frame(SAID, new_due), SAID, closed=[old])
    assert change.created == []
    [back] = change.reopened
    assert (back.id, back.status, back.opened_ms) == ("old", "open", NOW)
    assert back.due_ms == NOW + 2 * DAY_MS
    assert back.notes[-1].event == "reopened" and f"was {status}" in back.notes[-1].detail


@pytest.mark.parametrize(
    ("old_due", "new_due", "due", "dropped"),
    [
        (NOW + DAY_MS, None, NOW + DAY_MS, False),  # its own due, still ahead
        (NOW - DAY_MS, None, None, True),  # passed: dropped, the loop is not re-expired
        (NOW - DAY_MS, NOW + 2 * DAY_MS, NOW + 2 * DAY_MS, False),  # the words' new due
        (None, None, None, False),
    ],
)
def test_reopen_loop_dues(
    old_due: int | None, new_due: int | None, due: int | None, dropped: bool
) -> None:
    old = close_loop(loop("old", "x y", due_ms=old_due), "expired", "due_passed", NOW - 1)
    back, note = reopen_loop(old, CandidateLoop(description="x y", due_ms=new_due), NOW)
    assert back.due_ms == due and ("dropped" in note) is dropped
    assert not expire([back], NOW + HOUR_MS, CFG)


def test_a_loop_closed_in_this_frame_is_not_reopened_nor_recreated() -> None:
    open_one = loop("r", "send the report to Dana")
    change = apply([open_one], JudgeFrame(new=[SEND], closed=[1]), "sent the report to Dana")
    assert [c.id for c in change.closed] == ["r"] and not change.created and not change.reopened


# ---- a dismissal that matches two open loops asks which -------------------------------------

DANA = loop("dana", "send the report to Dana", created_ms=NOW - 2)
BOARD = loop("board", "print the report for the board meeting", created_ms=NOW - 1)
KO_SEND = loop("ko1", "분기 보고서 팀장님께 보내기", created_ms=NOW - 2)
KO_PRINT = loop("ko2", "주간 보고서 인쇄하기", created_ms=NOW - 1)


@pytest.mark.parametrize(
    ("user_input", "options", "chosen"),
    [
        ("the second one", [BOARD, DANA], ["dana"]),
        ("2", [BOARD, DANA], ["dana"]),
        ("1번", [BOARD, DANA], ["board"]),
        ("첫 번째 거", [KO_PRINT, KO_SEND], ["ko2"]),
        ("두 번째", [KO_PRINT, KO_SEND], ["ko1"]),
        ("both", [BOARD, DANA], ["board", "dana"]),
        ("둘 다 취소야", [KO_PRINT, KO_SEND], ["ko2", "ko1"]),
        ("the one for Dana", [BOARD, DANA], ["dana"]),
        ("분기 보고서", [KO_PRINT, KO_SEND], ["ko1"]),
        ("neither", [BOARD, DANA], []),
        ("아니 둘 다 아니야", [KO_PRINT, KO_SEND], []),
        ("what's the weather like?", [BOARD, DANA], None),
        ("7", [BOARD, DANA], None),
    ],
)
def test_the_answer_to_which_one(
    user_input: str, options: list[OpenLoop], chosen: list[str] | None
) -> None:
    assert answer_choice(user_input, options, CFG) == chosen


@pytest.mark.parametrize(
    ("words", "loops"),
    [
        ("the report is cancelled", [DANA, BOARD]),
        ("보고서는 취소됐어", [KO_SEND, KO_PRINT]),
    ],
)
def test_an_ambiguous_dismissal_closes_nothing_and_asks(words: str, loops: list[OpenLoop]) -> None:
    # The judge closes both, as small models do: the person's words decide, not its numbers.
    change = apply(loops, JudgeFrame(closed=[1, 2]), words)
    assert change.closed == [] and sorted(change.asked) == sorted(lp.id for lp in loops)
    assert {lp.notes[-1].event for lp in change.noted} == {"asked"}
    # Next turn the answer closes only the one named.
    answer = apply(loops, JudgeFrame(closed=[1, 2]), "the second one", asked=change.asked)
    [closed] = answer.closed
    assert closed.id == change.asked[1] and closed.status == "dismissed"
    assert closed.closed_reason == "dismissal_answer"


def test_a_dismissal_that_names_one_closes_it_at_once() -> None:
    change = apply([KO_SEND, KO_PRINT], JudgeFrame(), "분기 보고서는 취소됐어")
    assert [lp.id for lp in change.closed] == ["ko1"] and change.asked == []


def test_a_question_lapses_after_one_turn() -> None:
    change = apply([DANA, BOARD], JudgeFrame(), "what's for lunch? 2", asked=[])
    assert change.closed == []


# ---- a single word never becomes a promise ------------------------------------------------------


@pytest.mark.parametrize(
    ("description", "evidence", "shaped"),
    [
        ("bash", "", False),
        ("bash", "can you run ls with bash", False),
        ("회의", "회의 있어", False),
        ("Exercise", "I need to exercise", False),
        ("send the report to Dana", "", True),
        ("보고서 보내기", "", True),
        ("장보기", "", True),  # a stem and a verb written as one word
        ("세금 신고서 제출", "", True),
        ("walk the dog", "walk the dog tonight", True),
        ("exercise daily", "I need to exercise daily", True),
        ("엄마 편지", "엄마 편지", False),
    ],
)
def test_promise_shape(description: str, evidence: str, shaped: bool) -> None:
    assert promise_shaped(description, evidence) is shaped


@pytest.mark.parametrize(
    ("description", "evidence", "user_input", "quoted"),
    [
        # The judge's evidence, word for word in the input: kept as given.
        ("보고서 보내기", "보고서 보내야 해", "내일까지 보고서 보내야 해", "보고서 보내야 해"),
        # Paraphrased or missing: the input clause that holds it.
        ("renew passport", "I will renew the passport", "hi. I must renew my passport, ok?",
         "I must renew my passport"),
        ("보고서 보내기", None, "안녕. 내일까지 보고서 보내야 해, 회의도 있고",
         "내일까지 보고서 보내야 해"),
    ],
)  # fmt: skip
def test_evidence_is_quoted_from_the_persons_words(
    description: str, evidence: str | None, user_input: str, quoted: str
) -> None:
    assert quote(description, evidence, user_input) == quoted


def test_a_one_word_item_is_dropped_and_the_real_promise_kept() -> None:
    words = "can you run ls with bash? and I must renew my passport before the trip"
    judged = frame(
        words,
        CandidateLoop(description="bash"),
        CandidateLoop(
            description="renew passport before trip", evidence="I must renew my passport"
        ),
    )
    change = apply([], judged, words)
    assert [s.reason for s in change.skipped] == ["not_a_promise"]
    [kept] = change.created
    assert kept.evidence == "I must renew my passport"
