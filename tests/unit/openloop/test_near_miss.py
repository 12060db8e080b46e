"""The field-wise near-miss guard: one row per field and per form it reads.

Each pair is two different promises; a real small embedder scores such pairs 0.88–0.99, so the
cosine given here is 0.99 with a calibrated threshold of 0.85: only the guard keeps them apart.
Sentences written for these tests (not from the labelled set or the seed).
"""

from __future__ import annotations

from datetime import date

import pytest

from jarvis.agent_layer.openloop.openloop_types import OpenLoopConfig, judge_pair, same_loop
from jarvis.agent_layer.openloop.same_loop import differing_spans

CFG = OpenLoopConfig(cosine_threshold=0.85)
THURSDAY = date(2026, 10, 15)


@pytest.mark.parametrize(
    ("a", "b", "field"),
    [
        # time: 반 / 30분 / 15분, 오전/오후, 정오/자정, am/pm, HH:MM, "at 7", half past
        ("4시 반에 약국 가기", "4시에 약국 가기", "time"),
        ("4시 30분에 약국 가기", "4시 15분에 약국 가기", "time"),
        ("오전 8시 등산 출발", "오후 8시 등산 출발", "time"),
        ("정오까지 서류 접수", "자정까지 서류 접수", "time"),
        ("pick up Leo at 3pm", "pick up Leo at 3am", "time"),
        ("call the florist at 10:15", "call the florist at 10:45", "time"),
        ("stretch at 6", "stretch at 6:30", "time"),
        ("feed the cat at half past eight", "feed the cat at 8", "time"),
        # half of the day without an hour
        ("아침에 빨래 돌리기", "저녁에 빨래 돌리기", "half"),
        ("walk the dog this morning", "walk the dog this evening", "half"),
        # days: relative words, colloquial forms, weekdays and dates, resolved against today
        ("낼 택배 부치기", "모레 택배 부치기", "day"),
        ("오늘 택배 부치기", "내일 택배 부치기", "day"),
        ("모레 택배 부치기", "글피 택배 부치기", "day"),
        ("내일 택배 부치기", "월요일에 택배 부치기", "day"),
        ("이번 주 금요일 택배 부치기", "다음 주 금요일 택배 부치기", "day"),
        ("11월 2일 택배 부치기", "11월 3일 택배 부치기", "day"),
        ("11/2 택배 부치기", "11/3 택배 부치기", "day"),
        ("mail the parcel tomorrow", "mail the parcel on Monday", "day"),
        ("mail the parcel on the 3rd", "mail the parcel on the 4th", "day"),
        # counts and amounts with units
        ("스티커 50장 인쇄", "스티커 80장 인쇄", "count"),
        ("도시락 7개 주문", "도시락 9개 주문", "count"),
        ("print three flyers", "print six flyers", "count"),
        ("prep the Q1 numbers", "prep the Q2 numbers", "count"),
        ("회비 3만원 입금", "회비 4만원 입금", "amount"),
        ("회비 3만 원 입금", "회비 30만 원 입금", "amount"),
        ("send $40 to Zoe", "send $400 to Zoe", "amount"),
        # recipients: titles, names, family words
        ("국장님께 기획안 올리기", "차장님께 기획안 올리기", "recipient"),
        ("유진한테 책 돌려주기", "현우한테 책 돌려주기", "recipient"),
        ("email the slides to Nora", "email the slides to Pete", "recipient"),
        ("call my aunt", "call my uncle", "recipient"),
        # objects
        ("세미나 회의록 공유", "세미나 회의 자료 공유", "object"),
        ("공급사 견적서 보내기", "공급사 계약서 보내기", "object"),
        ("renew the car registration", "renew the car insurance", "object"),
        # an action word that is not the main verb names the object ("설치 업체" ≠ "청소 업체")
        ("에어컨 설치 업체 부르기", "에어컨 청소 업체 부르기", "object"),
        # the action itself
        ("연간 계획서 작성", "연간 계획서 검토", "action"),
        ("샘플 받기", "샘플 보내기", "action"),
        ("write the grant report", "review the grant report", "action"),
        ("review the lease", "sign the lease", "action"),
        # undoing words
        ("정기 배송 갱신", "정기 배송 해지", "undo"),
        ("요가 수업 신청", "요가 수업 신청 철회", "undo"),
        ("도서관 책 빌리기", "도서관 책 반납", "undo"),
        ("콘서트 표 예매", "콘서트 표 취소", "undo"),
        ("subscribe to the podcast", "unsubscribe from the podcast", "undo"),
        ("book the campsite", "cancel the campsite", "undo"),
        # negation on one side
        ("주말에 출근하기", "주말에 출근 안 하기", "negation"),
        ("reply to the landlord", "don't reply to the landlord", "negation"),
    ],
)
def test_a_near_miss_is_never_one_promise(a: str, b: str, field: str) -> None:
    assert not same_loop(a, b, CFG, 0.99)
    assert not same_loop(b, a, CFG, 0.99)
    decision = judge_pair(a, b, CFG, 0.99, today=THURSDAY)
    assert not decision.same and decision.kept_because == "near_miss"
    assert field in [c.name for c in decision.fields if c.verdict == "differ" and c.hard]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("내일 택배 부치기", "금요일에 택배 부치기"),  # Thursday: tomorrow is Friday
        ("모레 택배 부치기", "토요일에 택배 부치기"),
        ("mail the parcel tomorrow", "mail the parcel on Friday"),
    ],
)
def test_relative_days_compare_as_resolved_dates(a: str, b: str) -> None:
    assert same_loop(a, b, CFG, today=THURSDAY)
    # Without today's date the two may differ: kept apart rather than guessed.
    assert not same_loop(a, b, CFG)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("택배 부치기", "내일 택배 부치기"),  # a fact on one side is elaboration
        ("스티커 인쇄", "스티커 50장 인쇄"),
        ("기획안 올리기", "국장님께 기획안 올리기"),
        ("보고서 2부 출력", "보고서 2부 출력하기"),
    ],
)
def test_a_fact_on_one_side_only_is_no_conflict(a: str, b: str) -> None:
    assert same_loop(a, b, CFG)


def test_an_undoing_word_on_both_sides_agrees() -> None:
    assert same_loop("넷플릭스 해지하기", "넷플릭스 해지", CFG)
    assert same_loop("cancel the gym plan", "cancel my gym plan", CFG)


def test_a_soft_difference_only_yields_to_a_calibrated_cosine() -> None:
    a, b = "머리 자르기", "미용실 가서 커트"  # no word in common: the text rules cannot tell
    assert judge_pair(a, b, CFG).kept_because == "reworded"
    assert not same_loop(a, b, CFG, 0.9)  # ▲ its differing spans are not explained
    spans = {p: 0.95 for p in differing_spans(a, b)}
    assert same_loop(a, b, CFG.model_copy(update={"span_threshold": 0.9}), 0.9, spans=spans)
    assert not same_loop(a, b, OpenLoopConfig(), 0.99)  # uncalibrated: candidates only
