"""Unspoken thoughts: which are relevant to the next message, offered once (pure tables)."""

from __future__ import annotations

import pytest

from jarvis.core.proactive.surface import (
    HELD_BACK,
    MAX_AGE_MS,
    MAX_OFFERED,
    Unspoken,
    is_relevant,
    keep,
    pick,
    section,
)

REPORT = ("분기 보고서", "분기 보고서 초안, 오늘 오후에 같이 볼까요?")
RUST = ("rust release", "Rust 1.90 is out: the new let-chains might simplify your parser.")

RELEVANCE = [
    ("분기 보고서 어떻게 됐지?", REPORT, True),  # the topic's words
    ("보고서를 오늘 끝내야 해", REPORT, True),  # a particle glued on: 보고서를
    ("오늘 날씨 어때?", REPORT, False),
    ("회의록 정리해 줘", REPORT, False),
    ("is there a new rust release?", RUST, True),
    ("my parser needs let-chains; anything new?", RUST, True),  # three of the thought's words
    ("what's the weather like today?", RUST, False),
    ("rust", RUST, True),  # one of two topic words is half
    ("the release notes of python", RUST, True),  # "release": half of the topic
    ("", REPORT, False),
    ("ㅋㅋㅋ", REPORT, False),
]


@pytest.mark.parametrize(("message", "thought", "expected"), RELEVANCE)
def test_relevance(message: str, thought: tuple[str, str], expected: bool) -> None:
    assert is_relevant(message, *thought) is expected


def thought(id_: str, about: tuple[str, str], at: int = 0, user: str = "local") -> Unspoken:
    return Unspoken(id_, user, "suggestion", about[0], about[1], at, "below_threshold")


def test_offered_once_newest_first_bounded_and_only_to_their_person() -> None:
    kept = [
        thought("a", REPORT, 1),
        thought("b", REPORT, 2),
        thought("c", REPORT, 3),
        thought("d", REPORT, 4, user="someone-else"),
        thought("e", RUST, 5),
    ]
    offered, after = pick("분기 보고서 진행 상황은?", kept, "local", 10)
    assert [u.id for u in offered] == ["c", "b"] and len(offered) == MAX_OFFERED
    assert [u.id for u in after if u.used] == ["b", "c"]
    again, _ = pick("분기 보고서 진행 상황은?", after, "local", 10)
    assert [u.id for u in again] == ["a"]  # the used ones are not offered twice


def test_stale_thoughts_are_not_offered_and_not_kept() -> None:
    old = thought("old", REPORT, 0)
    assert pick("분기 보고서?", [old], "local", MAX_AGE_MS + 1)[0] == []
    fresh = thought("new", REPORT, MAX_AGE_MS)
    assert [u.id for u in keep([old], [fresh], MAX_AGE_MS + 1)] == ["new"]
    used = Unspoken("u", "local", "reminder", "x", "y", MAX_AGE_MS, "too_soon", used=True)
    assert keep([used], [], MAX_AGE_MS) == []


def test_what_the_person_does_not_want_is_never_kept() -> None:
    assert "muted_topic" not in HELD_BACK and "not_new" not in HELD_BACK
    assert "empty" not in HELD_BACK and "speak" not in HELD_BACK


def test_the_section_is_bounded() -> None:
    long = thought("l", ("topic", "x" * 1000))
    text = section([long, long, long], "[header]")
    assert text.splitlines()[0] == "[header]" and len(text.splitlines()) == 1 + MAX_OFFERED
    assert max(len(line) for line in text.splitlines()) <= 302
    assert section([], "[header]") == ""
