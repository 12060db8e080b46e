"""Recall ranking and episode filters: one row per rule."""

from __future__ import annotations

import pytest

from jarvis.memory import MemoryItem, WorkingMemory
from jarvis.memory.episodes import clip_head_tail
from jarvis.memory.recall import rank_recalled

DAY = 24 * 3600 * 1000


def item(name: str, text: str, ts: int = 0, embedding: list[float] | None = None) -> MemoryItem:
    return MemoryItem(
        id=name, kind="semantic", agent_id="main", user_id="u", text=text, ts_ms=ts,
        embedding=embedding,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("items", "query", "rehearsed", "vector", "expected"),
    [
        # more shared words beat everything else
        ([item("a", "invoice acme", 10 * DAY), item("b", "invoice acme friday", 0)],
         "friday invoice acme", {"a": 5}, None, ["b", "a"]),
        # equal words: the rehearsed one beats a newer one
        ([item("new", "invoice", 10 * DAY), item("old", "invoice", 0)],
         "invoice", {"old": 1}, None, ["old", "new"]),
        # equal words, nothing rehearsed: the more recent first
        ([item("old", "invoice", 0), item("new", "invoice", 30 * DAY)],
         "invoice", {}, None, ["new", "old"]),
        # equal everything: the store's order (newest first) stays
        ([item("x", "invoice", 5), item("y", "invoice", 5)], "invoice", {}, None, ["x", "y"]),
        # with equal words, the cosine decides
        ([item("lex", "dog food", 0, [0.0, 1.0]), item("sem", "dog puppy meal", 0, [1.0, 0.0])],
         "dog", {}, [1.0, 0.0], ["sem", "lex"]),
        # vectors of another embedder (other length) are ignored until re-embedded
        ([item("lex", "dog food", 0, [0.0, 1.0]), item("sem", "puppy meal", 0, [1.0, 0.0, 0.0])],
         "dog", {}, [1.0, 0.0], ["lex", "sem"]),
    ],
)  # fmt: skip
def test_rank_recalled(
    items: list[MemoryItem],
    query: str,
    rehearsed: dict[str, int],
    vector: list[float] | None,
    expected: list[str],
) -> None:
    working = WorkingMemory(rehearsals=rehearsed)
    assert [i.id for i in rank_recalled(items, query, working, vector)] == expected


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("short", "short"),
        ("a" * 1000, "a" * 1000),
        ("h" * 800 + "t" * 400, "h" * 697 + "\n…\n" + "t" * 300),
    ],
)
def test_clip_head_tail(text: str, kept: str) -> None:
    assert clip_head_tail(text) == kept
