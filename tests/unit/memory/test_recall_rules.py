"""Which items may come back into a conversation, and why (memory/recall_rules.py)."""

from __future__ import annotations

import pytest

from jarvis.memory.episodes import make_episode
from jarvis.memory.recall_rules import (
    RecallReason,
    content_words,
    recall_reason,
    recalled_text,
)
from jarvis.memory.store import MemoryItem


def episode_item(
    utterance: str, answer: str, outcome: str = "success", tools: bool = False
) -> MemoryItem:
    calls = [("bash", {"command": "ls"})] if tools else []
    episode = make_episode(
        agent_id="main", user_id="u", session_id="s", turn=3, ts_ms=1,
        utterance=utterance, answer=answer, successful_calls=calls, outcome=outcome,
        overflow=False,
    )  # fmt: skip
    return MemoryItem(
        id="e", kind="episode", agent_id="main", user_id="u", text=f"{utterance} → {answer}",
        session_id="s", turn=3, ts_ms=1, episode=episode,
    )  # fmt: skip


def semantic(text: str, embedding: list[float] | None = None) -> MemoryItem:
    return MemoryItem(
        id="m", kind="semantic", agent_id="main", user_id="u", text=text, embedding=embedding
    )


def reason(item: MemoryItem, query: str, vector: list[float] | None = None) -> RecallReason | None:
    return recall_reason(item, content_words(query), vector, 0.85)


@pytest.mark.parametrize(
    ("outcome", "recalled"),
    [("success", True), ("failure", False), ("denied", False), ("aborted", False)],
)
def test_only_successful_turns_come_back(outcome: str, recalled: bool) -> None:
    item = episode_item("my parking spot is B12", "noted", outcome)
    assert (reason(item, "where is my parking spot") is not None) is recalled


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("where is my parking spot", ("parking", "spot")),
        ("what about the zebra", None),  # nothing of the person's words: no zebra in them
        ("Hello! Who are you?", None),  # only words that say nothing about a topic
        ("", None),
        ("Paris", None),  # only the model's answer says Paris: an answer is not evidence
    ],
)
def test_relevance_is_a_content_word_of_the_persons_words(
    query: str, words: tuple[str, ...] | None
) -> None:
    item = episode_item("my parking spot is B12", "It is in Paris, level B12")
    found = reason(item, query)
    assert (found.words if found else None) == words


def test_a_close_meaning_is_a_reason_too() -> None:
    item = semantic("the dog's name is Bori", embedding=[1.0, 0.0])
    assert reason(item, "pet", [0.99, 0.14]) == RecallReason(
        words=(), similarity=pytest.approx(0.99, abs=0.01)
    )
    assert reason(item, "pet", [0.0, 1.0]) is None  # far apart
    assert reason(item, "pet", [1.0, 0.0, 0.0]) is None  # another embedder's vector


def test_a_turn_without_tools_comes_back_as_the_persons_words_only() -> None:
    chat = episode_item("my parking spot is B12", "Sure, it is level C3 in Paris")
    assert recalled_text(chat) == "my parking spot is B12"
    work = episode_item("list the files", "a.txt b.txt", tools=True)
    assert recalled_text(work) == "list the files → a.txt b.txt"
    assert recalled_text(semantic("release branch is r-42")) == "release branch is r-42"


def test_korean_words_match_with_particles() -> None:
    item = episode_item("배포는 금요일에 한다", "알겠습니다")
    found = reason(item, "배포 언제야")
    assert found is not None and found.words == ("배포",)
