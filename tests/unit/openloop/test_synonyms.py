"""Restatements merge with no embedder: one row per synonym class of `tables` and per rule of
`normalise` (Korean particles and endings, honorifics, colloquial days, English idioms).

Sentences written for these tests (not from the labelled set or the seed).
"""

from __future__ import annotations

from datetime import date

import pytest

from jarvis.agent_layer.openloop.normalise import read_words
from jarvis.agent_layer.openloop.openloop_types import OpenLoopConfig, judge_pair

CFG = OpenLoopConfig()  # no embedder: the text rules alone
THURSDAY = date(2026, 10, 15)


@pytest.mark.parametrize(
    ("a", "b", "kind"),
    [
        # verb synonyms (tables.ACTIONS classes)
        ("세금계산서 발송하기", "세금계산서 보내기", "send"),
        ("세금계산서 넘기기", "세금계산서 전달하기", "send"),
        ("학회 등록비 입금하기", "학회 등록비 송금하기", "pay"),
        ("학회 발표 신청하기", "학회 발표 접수하기", "apply"),
        ("안내문 출력", "안내문 인쇄하기", "print"),
        ("계약 조건 검토하기", "계약 조건 확인하기", "review"),
        ("김 과장에게 자료 요청하기", "김 과장한테 자료 부탁하기", "ask"),
        ("forward the itinerary to Kim", "send Kim the itinerary", "send"),
        ("phone the clinic", "call the clinic", "call"),
        ("respond to the survey email", "reply to the survey email", "reply"),
        ("purchase the train tickets", "buy the train tickets", "buy"),
        # honorific and plain forms
        ("할아버지께 약 드리기", "할아버지한테 약 주기", "honorific"),
        ("과장님께 결과 보고드리기", "과장님한테 결과 보고하기", "honorific"),
        ("이모께 주소 여쭤보기", "이모한테 주소 물어보기", "honorific"),
        ("코치님께 일정 묻기", "코치한테 일정 묻기", "honorific"),
        ("어머니 생신 케이크 사기", "엄마 생일 케이크 사기", "honorific"),
        # Korean particles and endings stripped by rule
        ("우체국에서 소포를 부치기", "우체국 소포 부치기", "particle"),
        ("학원비를 결제해야 해", "학원비 결제", "particle"),
        ("팀원들에게 일정 공유해줘", "팀원에게 일정 공유하기", "particle"),
        # conjugated stems (jamo rules) and compounds
        ("삼촌께 소포 부쳐 드리기", "삼촌께 소포 보내기", "conjugation"),
        ("선물 골라 두기", "선물 고르기", "conjugation"),
        ("휴가 결재받기", "휴가 결재 받기", "compound"),
        # colloquial days and dates
        ("낼 오전 은행 들르기", "내일 오전 은행 들르기", "colloquial_day"),
        ("담주 화욜 발표", "다음 주 화요일 발표", "colloquial_day"),
        ("11/4까지 원서 내기", "11월 4일까지 원서 내기", "colloquial_day"),
        ("ring the bank tmrw", "ring the bank tomorrow", "colloquial_day"),
        # the same clock time in other words
        ("두 시 반 상담", "2시 30분 상담", "time_form"),
        ("정오까지 회신", "낮 12시까지 회신", "time_form"),
        ("자정까지 접수", "밤 12시까지 접수", "time_form"),
        ("meet Ivy at quarter past four", "meet Ivy at 4:15", "time_form"),
        ("send it by noon", "send it by 12pm", "time_form"),
        # period ends
        ("월말까지 정산", "이번 달 말까지 정산", "period"),
        ("finish the audit by end of month", "finish the audit by the end of the month", "period"),
        # English idioms for one action or deadline
        ("wrap up the memo by EOD", "finish the memo by end of day", "idiom"),
        ("hand in the essay", "submit the essay", "idiom"),
        ("return Ken's call", "call Ken back", "idiom"),
        ("make an appointment with the vet", "book the vet", "idiom"),
        ("take the drill back to Sam", "return the drill to Sam", "idiom"),
        ("print out the forms", "print the forms", "idiom"),
        # word order and elaboration
        ("엑셀로 출장비 정리", "출장비 엑셀로 정리하기", "word_order"),
        ("화분 분갈이", "베란다 화분 분갈이", "elaboration"),
        ("water the ferns", "water the ferns before the trip", "elaboration"),
    ],
)
def test_a_restatement_merges_without_an_embedder(a: str, b: str, kind: str) -> None:
    decision = judge_pair(a, b, CFG, today=THURSDAY)
    assert decision.same, f"{kind}: {decision.explain()}"
    assert judge_pair(b, a, CFG, today=THURSDAY).same


@pytest.mark.parametrize(
    ("text", "persons", "predicate"),
    [
        ("팀장님께 보고서 보내기", {"팀장"}, "보내"),  # the title is politeness: 팀장님 = 팀장
        ("민수한테 우산 돌려주기", {"민수"}, "돌려주"),
        ("아버지께 용돈 부쳐 드리기", {"아빠"}, "주"),
        ("Send Lena the notes", {"lena"}, "send"),
        ("call grandma tonight", {"grandma"}, "call"),
    ],
)
def test_words_are_read_by_rule(text: str, persons: set[str], predicate: str) -> None:
    words = read_words(text)
    assert words.persons == persons
    assert words.predicate == predicate
