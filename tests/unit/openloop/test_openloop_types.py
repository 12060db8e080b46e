"""The pure AGENDA rules, one row per rule of seed 001's tables (plus the ▲ near-miss guard)."""

from __future__ import annotations

import itertools
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from jarvis.agent_layer.openloop.dismissal import read_dismissal
from jarvis.agent_layer.openloop.openloop_types import (
    AgendaChange,
    CandidateLoop,
    JudgeFrame,
    LoopScope,
    OpenLoop,
    OpenLoopConfig,
    apply_judgement,
    char_bigrams,
    expire,
    find_dismissed,
    format_numbered,
    grounded,
    loop_match,
    merge_loop,
    normalise,
    numbered,
    same_loop,
    would_expire_on_revive,
)
from jarvis.agent_layer.openloop.same_loop import differing_spans

# bge-m3's calibrated threshold (seed 001); an embedder without one never merges by cosine.
CFG = OpenLoopConfig(cosine_threshold=0.85, span_threshold=0.9)
SEOUL = ZoneInfo("Asia/Seoul")
SCOPE = LoopScope(agent_id="jarvis", user_id="u1", session_id="s1")
HOUR_MS = 3600 * 1000
DAY_MS = 24 * HOUR_MS
NOW = int(datetime(2026, 10, 11, 9, 0, tzinfo=SEOUL).timestamp() * 1000)
REPORT_INPUT = "내일 오후 3시까지 분기 보고서 초안을 팀장님께 보내야 해"


def loop(
    loop_id: str, description: str, *, created_ms: int = NOW, due_ms: int | None = None
) -> OpenLoop:
    return OpenLoop(
        id=loop_id,
        agent_id="jarvis",
        user_id="u1",
        session_id="s1",
        description=description,
        due_ms=due_ms,
        created_ms=created_ms,
        updated_ms=created_ms,
    )


def ids() -> itertools.count[int]:
    return itertools.count(1)


def judge(
    open_loops: list[OpenLoop],
    frame: JudgeFrame,
    user_input: str,
    cosines: dict[tuple[str, str], float] | None = None,
    spans: dict[tuple[str, str], float] | None = None,
) -> AgendaChange:
    counter = ids()
    return apply_judgement(
        open_loops,
        frame,
        user_input,
        NOW,
        CFG,
        scope=SCOPE,
        new_id=lambda: f"new{next(counter)}",
        cosines=cosines,
        spans=spans,
    )


# ---- normalisation ---------------------------------------------------------------------------


def test_normalise_is_nfc_casefold_and_collapsed_whitespace() -> None:
    decomposed = "\u1107\u1169\u1100\u1169\u1109\u1165"  # 보고서 as jamo (NFD)
    assert normalise(f"  {decomposed}   SEND.  ") == "보고서 send"


def test_char_bigrams_skip_whitespace() -> None:
    assert char_bigrams("배포 결과") == {"배포", "포결", "결과"}
    assert char_bigrams("a") == {"a"}
    assert char_bigrams("  ") == frozenset()


# ---- grounded (seed table: evidence first, then description) ----------------------------------


@pytest.mark.parametrize(
    ("description", "evidence", "user_input", "expected"),
    [
        # First: the evidence is copied from the input, so a reworded description is kept.
        ("결과 공유", "배포 끝나면 알려줄게", "배포 끝나면 알려줄게", True),
        # Without evidence the reworded description has no overlap and is dropped (seed limit).
        ("결과 공유", None, "배포 끝나면 알려줄게", False),
        # Evidence made up from memory is not in the input; the description decides instead.
        ("보고서 보내기", "지난주에 말한 보고서", "내일 오후 3시까지 보고서 보내야 해", True),
        ("헬스장 등록", "지난주에 말한 헬스장 등록", "내일 오후 3시까지 보고서 보내야 해", False),
        # A description that copies the input is enough at 20 %.
        ("분기 보고서 초안 보내기", None, REPORT_INPUT, True),
    ],
)
def test_grounded(description: str, evidence: str | None, user_input: str, expected: bool) -> None:
    assert grounded(description, evidence, user_input, CFG) is expected


def test_grounded_thresholds_are_the_seeds() -> None:
    # Evidence "가나다라마" has 4 bigrams; 2 in the input is exactly 50 %.
    assert grounded("x", "가나다라마", "가나 다라", CFG)
    assert not grounded("x", "가나다라마", "가나", CFG)
    # Description with 5 bigrams, 1 in the input is exactly 20 %.
    assert grounded("가나다라마바", None, "가나", CFG)
    assert not grounded("가나다라마바사아", None, "가나", CFG)


# ---- same_loop: the four seed conditions -----------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "cosine", "rule"),
    [
        ("배포 결과 공유", "배포 결과 공유", None, "equal"),
        ("배포 결과 공유", "배포결과  공유.", None, "equal"),
        ("Send The Report", "send the report", None, "equal"),
        ("로그 확인해줘", "내일 배포 전에 로그 확인해줘", None, "contained"),
        # The seed's cosine example now merges by the synonym table (리스트 = 목록).
        ("참석자 목록 확정", "참석자들의 최종 리스트 확정", None, "synonyms"),
        ("운동 등록하기", "헬스장 회원권 끊기", 0.92, "cosine"),
        ("배포 결과 공유하기", "배포 결과 공유해줘", None, "synonyms"),
        ("분기 보고서 초안 보내기", "분기 보고서 초안을 팀장님께 보내기", None, "synonyms"),
        ("call mom at 3pm", "call mom at 15:00", None, "synonyms"),
        ("오후 3시 보고서 보내기", "3시 보고서 보내기", None, "contained"),
        ("보고서 잊지 말고 보내기", "보고서 보내기", None, "synonyms"),
        ("예약하기", "식당 예약하기", None, "jaccard"),
    ],
)
def test_same_loop_merges(a: str, b: str, cosine: float | None, rule: str) -> None:
    # A cosine merge needs its differing spans placed close by the embedder (issue 30).
    spans = {p: 0.95 for x, y in ((a, b), (b, a)) for p in differing_spans(x, y)}
    assert loop_match(a, b, CFG, cosine, spans=spans) == rule
    assert same_loop(b, a, CFG, cosine, spans=spans)


def test_cosine_rule_needs_the_calibrated_threshold_and_an_embedding() -> None:
    a, b = "운동 등록하기", "헬스장 회원권 끊기"  # a full rewording: the text rules cannot tell
    spans = {p: 0.95 for p in differing_spans(a, b)}
    assert not same_loop(a, b, CFG)  # no embedding: the character rules alone keep them apart
    assert not same_loop(a, b, CFG, cosine=0.84, spans=spans)
    assert same_loop(a, b, CFG, cosine=0.85, spans=spans)
    # ▲ Without the differing spans' own cosine, or with them far apart, it never merges.
    assert not same_loop(a, b, CFG, cosine=0.99)
    assert not same_loop(a, b, CFG, cosine=0.99, spans={p: 0.85 for p in spans})
    # An uncalibrated embedder only names candidates: its cosine never merges.
    assert not same_loop(a, b, OpenLoopConfig(), cosine=0.99, spans=spans)


def test_containment_needs_six_characters() -> None:
    assert not same_loop("로그 확인", "내일 배포 전에 로그 확인하기 전에 메일", CFG)
    assert same_loop("로그 확인해줘", "배포 전에 로그 확인해줘", CFG)


@pytest.mark.parametrize(
    ("a", "b", "cosine"),
    [
        # ▲ different explicit time, even where a small embedding says 0.97
        ("내일 3시까지 보고서 보내기", "내일 5시까지 보고서 보내기", 0.97),
        ("call mom at 3pm", "call mom at 5pm", 0.97),
        ("오전 10시 회의 준비", "밤 10시 회의 준비", 0.95),
        # different count, date, amount
        ("보고서 2부 출력하기", "보고서 3부 출력하기", 0.96),
        ("10일까지 월세 내기", "12일까지 월세 내기", 0.96),
        ("pay the $200 deposit", "pay the $300 deposit", 0.96),
        ("Oct 12 dentist appointment", "Oct 14 dentist appointment", 0.96),
        # different day words
        ("내일 보고서 보내기", "모레 보고서 보내기", 0.93),
        ("이번 주 금요일 발표 준비", "다음 주 금요일 발표 준비", 0.93),
        ("submit the form tomorrow", "submit the form today", 0.93),
        # negation on one side
        ("보고서 보내기", "보고서 안 보내기", 0.9),
        ("팀장님께 보고서 보내기", "팀장님께 보고서 보내지 않기", 0.9),
        ("send the report", "don't send the report", 0.9),
    ],
)
def test_near_miss_never_merges(a: str, b: str, cosine: float) -> None:
    assert loop_match(a, b, CFG, cosine) is None
    assert loop_match(a, b, CFG) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # the seed's "same topic, different promise" example and tighter variants (Jaccard 0.5+)
        ("팀장님께 분기 보고서 보내기", "팀장님께 휴가 신청서 보내기"),
        ("팀장님께 보고서 보내기", "팀장님께 신청서 보내기"),
        ("팀장님께 보고서 보내기", "부장님께 보고서 보내기"),
        ("send the report to Alice", "send the report to Bob"),
        ("PR 리뷰 해주기", "PR 머지하기"),
        ("운동 등록하기", "헬스장 회원권 끊기"),
    ],
)
def test_same_template_other_object_stays_apart(a: str, b: str) -> None:
    assert not same_loop(a, b, CFG)
    assert not same_loop(a, b, CFG, cosine=0.80)  # bge-m3's highest different-promise pair


# ---- merge_loop ------------------------------------------------------------------------------


def test_merge_only_a_new_due_updates() -> None:
    existing = loop("a", "보고서 보내기")
    same = merge_loop(existing, CandidateLoop(description="보고서 보내기 (다시)"), NOW + 1)
    assert same is existing
    due = NOW + DAY_MS
    updated = merge_loop(existing, CandidateLoop(description="x", due_ms=due), NOW + 1)
    assert (updated.due_ms, updated.updated_ms, updated.description) == (
        due,
        NOW + 1,
        "보고서 보내기",
    )
    assert merge_loop(updated, CandidateLoop(description="x", due_ms=due), NOW + 2) is updated


def test_merge_keeps_a_stated_due_over_a_guessed_one() -> None:
    stated = loop("a", "보고서 보내기", due_ms=NOW + DAY_MS)
    guessed = CandidateLoop(description="x", due_ms=NOW + 2 * DAY_MS, due_inferred=True)
    assert merge_loop(stated, guessed, NOW) is stated
    later = CandidateLoop(description="x", due_ms=NOW + 2 * DAY_MS)
    assert merge_loop(stated, later, NOW).due_ms == NOW + 2 * DAY_MS


# ---- dismissal -------------------------------------------------------------------------------

REPORT = loop("report", "보고서 보내기")
QUARTERLY = loop("quarterly", "분기 보고서 초안을 팀장님께 보내기")
MEETING = loop("meeting", "회의 준비하기")
MEETING_3 = loop("meeting3", "3시 회의 준비")
MEETING_5 = loop("meeting5", "5시 회의 준비")
HOTEL = loop("hotel", "호텔 예약 취소하기")
EN_REPORT = loop("en", "send the quarterly report to Alice")
ALL = [REPORT, QUARTERLY, MEETING, MEETING_3, MEETING_5, HOTEL, EN_REPORT]


REPORTS = {"report", "quarterly"}
MEETINGS = {"meeting", "meeting3", "meeting5"}


@pytest.mark.parametrize(
    ("user_input", "dismissed", "asked"),
    [
        # ▲ words that point at two loops equally close neither: the person is asked which
        ("보고서는 취소됐어", set(), REPORTS),  # the seed's workaround wording
        ("그건 취소됐어, 안 챙겨도 돼", set(), set()),  # seed: points at nothing
        ("보고서 안 해도 돼", set(), REPORTS),
        ("회의 준비는 하지 마", set(), MEETINGS),
        ("회의 준비 그만해", set(), MEETINGS),
        ("보고서 이제 필요 없어", set(), REPORTS),
        ("보고서는 안 챙겨도 돼", set(), REPORTS),
        ("보고서 안 보내도 돼", set(), REPORTS),
        # ▲ a word only one of them holds says which
        ("분기 보고서는 취소됐어", {"quarterly"}, set()),
        ("팀장님께 보내는 보고서는 취소야", {"quarterly"}, set()),
        ("호텔 예약 취소 안 해도 돼", {"hotel"}, set()),
        ("cancel the report", {"en"}, set()),
        ("the report got cancelled", {"en"}, set()),
        ("never mind the report", {"en"}, set()),
        ("no need to send the report", {"en"}, set()),
        ("you don't need to send the report", {"en"}, set()),
        ("forget about the report", {"en"}, set()),
        ("stop reminding me about the report", {"en"}, set()),
        ("the report is not necessary anymore", {"en"}, set()),
        ("cancel it", set(), set()),
        # ▲ per clause: the meeting is cancelled (which one?), the report still stands
        ("회의는 취소됐고 보고서는 내일까지 보내야 해", set(), MEETINGS),
        # ▲ an explicit time in the clause must match the loop's
        ("3시 회의 취소됐어", {"meeting3"}, set()),
        # reminders are not dismissals
        ("보고서 잊지 말고 보내", set(), set()),
        ("don't forget to send the report", set(), set()),
    ],
)
def test_dismissal_words(user_input: str, dismissed: set[str], asked: set[str]) -> None:
    reading = read_dismissal(user_input, ALL, CFG)
    assert set(reading.closed) == set(find_dismissed(user_input, ALL, CFG)) == dismissed
    assert {i for group in reading.ambiguous for i in group} == asked


@pytest.mark.parametrize(
    "user_input", ["보고서 보냈어", "다 했어", "보고서 다 했어", "보냈어?", "done", "sent it"]
)
def test_completion_phrases_are_never_closed_by_code(user_input: str) -> None:
    assert find_dismissed(user_input, ALL, CFG) == []


def test_dismissal_overlap_is_measured_on_the_shorter_side() -> None:
    # "보고서 보내기" has 5 bigrams; "보고서는" leaves 3, of which 2 are in the loop (0.67).
    assert find_dismissed("보고서는 취소", [REPORT], CFG) == ["report"]
    strict = CFG.model_copy(update={"dismissal_overlap": 0.7})
    assert find_dismissed("보고서는 취소", [REPORT], strict) == []


def test_closed_loops_are_not_dismissed_again() -> None:
    done = REPORT.model_copy(update={"status": "done"})
    assert find_dismissed("보고서 취소", [done], CFG) == []


# ---- apply_judgement -------------------------------------------------------------------------


def test_new_grounded_loop_is_created_with_scope_and_due() -> None:
    due = NOW + DAY_MS
    frame = JudgeFrame(
        new=[CandidateLoop(description="보고서 보내기", evidence=REPORT_INPUT, due_ms=due)]
    )
    change = judge([], frame, REPORT_INPUT)
    assert change.changed
    [created] = change.created
    assert (created.id, created.session_id, created.due_ms, created.status) == (
        "new1",
        "s1",
        due,
        "open",
    )
    assert (created.created_ms, created.evidence) == (NOW, REPORT_INPUT)


def test_loop_copied_from_memory_is_not_stored() -> None:
    frame = JudgeFrame(new=[CandidateLoop(description="헬스장 회원권 끊기")])
    change = judge([], frame, REPORT_INPUT)
    assert not change.changed
    assert [s.reason for s in change.skipped] == ["ungrounded"]


@pytest.mark.parametrize(
    ("phrase", "closed"),
    [
        ("분기 보고서 초안 보내기", ["a"]),  # names one loop
        ("로그 확인하기", ["b"]),
        ("보고서", []),  # names both reports: closes neither
        ("헬스장 등록", []),  # names none
    ],
)
def test_closed_by_a_phrase_naming_one_loop(phrase: str, closed: list[str]) -> None:
    """Seed 001: closed_loops gives a number "(또는 문구)" — or a phrase. A phrase closes the
    one open loop it points at (the dismissal words' overlap rule), never several."""
    loops = [
        loop("a", "분기 보고서 초안 보내기", created_ms=NOW - 3),
        loop("b", "배포 전 로그 확인하기", created_ms=NOW - 2),
        loop("c", "주간 보고서 정리하기", created_ms=NOW - 1),
    ]
    change = judge(loops, JudgeFrame(closed_phrases=[phrase]), "그건 끝났어")
    assert sorted(lp.id for lp in change.closed) == closed
    assert all(lp.status == "done" for lp in change.closed)


def test_closed_by_number_as_shown_newest_first() -> None:
    older = loop("older", "로그 확인하기", created_ms=NOW - 2 * HOUR_MS)
    newer = loop("newer", "배포 결과 공유", created_ms=NOW - HOUR_MS)
    change = judge([older, newer], JudgeFrame(closed=[2, 7]), "로그 다 봤어")
    assert [(c.id, c.status, c.closed_reason, c.closed_ms) for c in change.closed] == [
        ("older", "done", "judge_closed", NOW)
    ]
    assert change.unknown_indices == [7]


def test_dismissal_words_close_even_when_the_judge_misses() -> None:
    change = judge([REPORT], JudgeFrame(), "보고서는 취소됐어")
    assert [(c.id, c.status, c.closed_reason) for c in change.closed] == [
        ("report", "dismissed", "dismissal_words")
    ]


def test_dismissal_wins_over_the_judges_number() -> None:
    change = judge([REPORT], JudgeFrame(closed=[1]), "보고서는 취소됐어")
    assert [c.status for c in change.closed] == ["dismissed"]


def test_closed_in_this_frame_is_not_reopened_by_this_frame() -> None:
    # The small model closes [1] and writes the same loop as new in one answer.
    frame = JudgeFrame(new=[CandidateLoop(description="보고서 보내기")], closed=[1])
    change = judge([REPORT], frame, "보고서 보내기는 끝났어")
    assert not change.created
    assert [(s.reason, s.loop_id) for s in change.skipped] == [("closed_in_frame", "report")]


def test_same_as_open_loop_merges_its_new_due_only() -> None:
    due = NOW + DAY_MS
    frame = JudgeFrame(new=[CandidateLoop(description="보고서 보내기", due_ms=due)])
    change = judge([REPORT], frame, "보고서 보내기 내일까지야")
    assert not change.created
    assert [(m.id, m.due_ms, m.description) for m in change.merged] == [
        ("report", due, "보고서 보내기")
    ]


def test_repeat_without_new_due_changes_nothing() -> None:
    frame = JudgeFrame(new=[CandidateLoop(description="보고서 보내기")])
    change = judge([REPORT], frame, "보고서 보내기 잊지 마")
    assert not change.changed
    assert [(s.reason, s.loop_id) for s in change.skipped] == [("duplicate", "report")]


def test_cosine_from_the_store_merges_a_rewording() -> None:
    attendees = loop("att", "운동 등록하기")
    text = "헬스장 회원권 끊기"
    frame = JudgeFrame(new=[CandidateLoop(description=text, due_ms=NOW + DAY_MS)])
    assert judge([attendees], frame, text).created  # no embedding: stays apart
    change = judge([attendees], frame, text, cosines={(text, "att"): 0.92})
    assert change.created  # ▲ the differing spans unexplained: kept apart
    spans = {p: 0.95 for p in differing_spans(text, "운동 등록하기")}
    change = judge([attendees], frame, text, cosines={(text, "att"): 0.92}, spans=spans)
    assert [m.id for m in change.merged] == ["att"] and not change.created


def test_near_miss_candidate_is_a_new_loop() -> None:
    three = loop("three", "내일 3시까지 보고서 보내기")
    text = "내일 5시까지 보고서 보내기"
    frame = JudgeFrame(new=[CandidateLoop(description=text)])
    change = judge([three], frame, text, cosines={(text, "three"): 0.97})
    assert [c.description for c in change.created] == [text]


def test_duplicates_within_one_frame_become_one_loop() -> None:
    due = NOW + DAY_MS
    frame = JudgeFrame(
        new=[
            CandidateLoop(description="배포 결과 공유"),
            CandidateLoop(description="배포 결과 공유", due_ms=due),
        ]
    )
    change = judge([], frame, "배포 결과 공유해 줄게")
    assert [(c.id, c.due_ms) for c in change.created] == [("new1", due)]
    assert not change.merged


def test_empty_candidate_is_skipped() -> None:
    change = judge([], JudgeFrame(new=[CandidateLoop(description=" ... ")]), "아무 말")
    assert [s.reason for s in change.skipped] == ["empty"]


# ---- expiry ----------------------------------------------------------------------------------

SIX_HOURS = CFG.expire_after_sec * 1000
SEVEN_DAYS = CFG.max_age_sec * 1000


@pytest.mark.parametrize(
    ("due_ms", "created_ms", "now_ms", "reason"),
    [
        (NOW, NOW - DAY_MS, NOW + SIX_HOURS, None),  # exactly due + 6 h: still open
        (NOW, NOW - DAY_MS, NOW + SIX_HOURS + 1, "due_passed"),
        (NOW + DAY_MS, NOW - 30 * DAY_MS, NOW, None),  # a due governs, not the age
        (None, NOW - SEVEN_DAYS, NOW, None),  # exactly 7 days: still open
        (None, NOW - SEVEN_DAYS - 1, NOW, "max_age"),
    ],
)
def test_expiry_edges(due_ms: int | None, created_ms: int, now_ms: int, reason: str | None) -> None:
    item = loop("x", "보고서 보내기", created_ms=created_ms, due_ms=due_ms)
    expired = expire([item], now_ms, CFG)
    assert [e.closed_reason for e in expired] == ([reason] if reason else [])
    assert all(e.status == "expired" and e.closed_ms == now_ms for e in expired)
    assert would_expire_on_revive(item, now_ms, CFG) is (reason is not None)


def test_expire_skips_closed_loops() -> None:
    done = loop("x", "a", created_ms=NOW - 30 * DAY_MS).model_copy(update={"status": "done"})
    assert expire([done], NOW, CFG) == []
    assert would_expire_on_revive(done, NOW, CFG)  # reviving it would be refused (409)


# ---- display ---------------------------------------------------------------------------------


def test_format_numbered_newest_first_in_the_users_timezone() -> None:
    due = int(datetime(2026, 10, 12, 10, 0, tzinfo=SEOUL).timestamp() * 1000)
    older = loop("o", "로그 확인하기", created_ms=NOW - HOUR_MS)
    newer = loop("n", "보고서 보내기", created_ms=NOW, due_ms=due)
    closed = loop("c", "닫힌 약속", created_ms=NOW + 1).model_copy(update={"status": "done"})
    assert format_numbered([older, newer, closed], SEOUL) == (
        "[1] 보고서 보내기 (기한 2026-10-12 10:00)\n[2] 로그 확인하기"
    )
    assert format_numbered([newer], ZoneInfo("UTC")) == "[1] 보고서 보내기 (기한 2026-10-12 01:00)"
    assert [lp.id for lp in numbered([older, newer, closed])] == ["n", "o"]
    assert format_numbered([], SEOUL) == ""
