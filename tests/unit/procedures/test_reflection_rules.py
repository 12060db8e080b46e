"""Which failures are reflected on, and when a kind is blocked (seed 000 "한 번만 반성")."""

from __future__ import annotations

from typing import Any

import pytest

from jarvis.core.procedures.reflection import failure_groups, kind_blocked
from jarvis.memory import MemoryItem, make_episode


def item(
    n: int, kind: str, outcome: str = "failure", agent: str = "main", **marks: Any
) -> MemoryItem:
    episode = make_episode(
        agent_id=agent, user_id="u", session_id="s", turn=n, ts_ms=n, utterance="q", answer="a",
        successful_calls=[(kind, {})], outcome=outcome, overflow=False,
    )  # fmt: skip
    episode.metadata.update(marks)
    return MemoryItem(id=f"e{n}", kind="episode", agent_id=agent, user_id="u", text="q",
                      episode=episode)  # fmt: skip


def test_latest_three_unreflected_failures_per_kind_newest_kind_first() -> None:
    items = [
        item(1, "bash"), item(2, "bash"), item(3, "glob"), item(4, "bash"), item(5, "bash"),
        item(6, "bash", outcome="success"), item(7, "grep", reflection="accepted"),
        item(8, "grep", agent="karen"), item(9, "glob"),
    ]  # fmt: skip
    groups = failure_groups(items, "main")
    assert [(g.kind, [i.id for i in g.items]) for g in groups] == [
        ("glob", ["e9", "e3"]),
        ("bash", ["e5", "e4", "e2"]),
    ]


@pytest.mark.parametrize(
    ("history", "blocked"),
    [
        ([], False),
        ([("rejected", "g1")], False),  # one rejection
        ([("rejected", "g1"), ("rejected", "g2")], True),  # two in a row
        ([("rejected", "g1"), ("rejected", "g1")], False),  # one group of two episodes
        ([("rejected", "g1"), ("accepted", "g2"), ("rejected", "g3")], False),  # not in a row
        ([("rejected", "g1"), ("rejected", "g2"), ("success", "")], False),  # a success unblocks
        ([("rejected", "g1"), ("rejected", "g2"), ("blocked", "g3")], True),  # stays blocked
    ],
)
def test_kind_blocked(history: list[tuple[str, str]], blocked: bool) -> None:
    items = []
    for n, (result, group) in enumerate(history, start=1):
        if result == "success":
            items.append(item(n, "bash", outcome="success"))
        else:
            items.append(item(n, "bash", reflection=result, reflection_group=group))
    assert kind_blocked(items, "bash") is blocked
