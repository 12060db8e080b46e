"""Semantic memory's pure rules: which sentences are facts the person states, and how a new
statement deduplicates against or corrects what is kept."""

from __future__ import annotations

import pytest

from jarvis.core.memory_tools.semantic import Kept, plan, statements, topic


@pytest.mark.parametrize(
    "said",
    [
        "I live in Busan.",
        "My car is a blue Hyundai.",
        "I'm allergic to peanuts.",
        "내 차는 파란 아반떼야.",
        "나는 부산에 살아.",
        "지금은 서울에 살아요.",
        "저는 땅콩 알레르기가 있어요.",
    ],
)
def test_first_person_statements_are_kept(said: str) -> None:
    assert statements(said) == [said]


@pytest.mark.parametrize(
    "said",
    [
        "If I lived in Busan I'd surf.",  # hypothetical
        "만약 내가 부산에 살면 좋겠다.",
        "Do I live in Busan?",  # question
        'He said "I live in Busan".',  # quoted
        "My wife is a teacher.",  # someone else
        "I live in Busan lol",  # a joke
        "Remind me to call my mom.",  # a request
        "내 메일 정리해줘.",
        "I need to send the report.",  # a plan: open loops keep those
        "내일 보고서 보낼 거야.",
        "I'm tired today.",  # a passing state
        "오늘 너무 피곤해.",
        "I'm tired.",  # one content word
        "parking spot B12",  # not about the person
    ],
)
def test_non_facts_are_never_kept(said: str) -> None:
    assert statements(said) == []


def test_a_message_yields_each_statement_once_in_order() -> None:
    said = "I live in Busan. Can you book a table? I love spicy food. I live in Busan!"
    assert statements(said) == ["I live in Busan.", "I love spicy food."]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("My car is a blue Hyundai.", "Actually, my car is a red Kia."),
        ("내 차는 파란 아반떼야.", "내 차는 아반떼가 아니라 소나타야."),
        ("I live in Busan.", "I moved to Seoul."),
        ("나는 부산에 살아.", "지금은 서울에 살아요."),
    ],
)
def test_same_topic_statements_correct_each_other(a: str, b: str) -> None:
    assert topic(a) is not None and topic(a) == topic(b)


def test_plan_dedupes_corrects_and_keeps_what_can_all_be_true() -> None:
    kept = [Kept("k2", "I love spicy food."), Kept("k1", "I live in Busan.")]
    change = plan(kept, ["i love spicy food", "I live in Seoul now.", "I love jazz."])
    assert [k.id for k in change.repeated] == ["k2"]  # the same words: not written twice
    assert [k.id for k in change.replace] == ["k1"]  # a corrected fact replaces the old one
    assert change.add == ["I live in Seoul now.", "I love jazz."]  # likes add up


def test_two_corrections_in_one_message_keep_the_last() -> None:
    change = plan([], ["My car is a Hyundai.", "My car is a Kia."])
    assert change.add == ["My car is a Kia."]
    assert change.replace == []  # the first was never kept
