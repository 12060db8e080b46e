"""The fact guard (issue 26 item 5): only the person's own plain statements become facts."""

from __future__ import annotations

import pytest

from jarvis.core.user_model import check_statement

ROWS = [
    # stated
    ("제 이름은 민준이에요", True, "stated"),
    ("저는 백엔드 개발자입니다", True, "stated"),
    ("서울 살아요", True, "stated"),
    ("요즘 러스트 공부하고 있어", True, "stated"),
    ("My name is Ana", True, "stated"),
    ("I work as a data engineer at a bank", True, "stated"),
    ("I prefer short answers", True, "stated"),
    ("회의는 싫어", True, "stated"),  # a taste: the topic is what the speaker dislikes
    # hypothetical / wishes / role-play
    ("만약 내가 부산에 산다면 바다를 매일 볼 텐데", False, "hypothetical"),
    ("부산 살면 좋겠다", False, "hypothetical"),
    ("개발자 그만두고 싶어", False, "hypothetical"),
    ("내가 의사인 척 해볼게", False, "hypothetical"),
    ("If I lived in Busan I'd surf every day", False, "hypothetical"),
    ("Suppose I'm a lawyer", False, "hypothetical"),
    ("I wish I were taller", False, "hypothetical"),
    ("Pretend I'm a pirate captain", False, "hypothetical"),
    ("Let's roleplay: I am the king of France", False, "hypothetical"),
    # questions
    ("제가 부산에 사나요?", False, "question"),
    ("내 이름이 뭐였지?", False, "question"),
    ("Do I live in Busan?", False, "question"),
    ("what is my name", False, "question"),
    # quotes of others
    ("팀장님이 나보고 천재래", False, "quoted"),
    ("He said I'm a genius", False, "quoted"),
    ('She told me "you are the best engineer"', False, "quoted"),
    ("엄마가 나 부산 사람이라고 했어", False, "quoted"),
    # third parties
    ("내 친구는 부산에 살아", False, "third_party"),
    ("엄마가 부산 사셔", False, "third_party"),
    ("민수는 디자이너야", False, "third_party"),
    ("민수는 축구를 좋아해", False, "third_party"),  # a taste with its own object: 민수's
    ("My wife is a doctor", False, "third_party"),
    ("She lives in Tokyo", False, "third_party"),
    # jokes and sarcasm
    ("나 천재임 ㅋㅋ", False, "joke_or_sarcasm"),
    ("I'm a genius lol", False, "joke_or_sarcasm"),
    ("yeah right, I'm the president", False, "joke_or_sarcasm"),
    ("I'm basically a wizard 😂", False, "joke_or_sarcasm"),
    # other: nothing about the person
    ("오늘 날씨 좋네", False, "other"),
    ("The weather is nice", False, "other"),
    ("", False, "other"),
]


@pytest.mark.parametrize(("sentence", "fact", "reason"), ROWS)
def test_guard(sentence: str, fact: bool, reason: str) -> None:
    result = check_statement(sentence)
    assert (result.fact, result.reason) == (fact, reason)
