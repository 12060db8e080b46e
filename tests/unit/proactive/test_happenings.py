"""Which happenings (a finished goal or Focus step, a new source item) are news (pure table)."""

from __future__ import annotations

import pytest

from jarvis.core.proactive.happenings import MAX_PER_TRIGGER, Happening, cursor, fresh


def h(kind: str, key: str, at: int, agent: str = "main", user: str = "local") -> Happening:
    return Happening(kind, agent, user, key, at, key)  # type: ignore[arg-type]


CASES = [
    # (happenings, cursors, agents) → groups as {(agent, user, kind): [keys]}
    (
        [h("goal_done", "goal:a", 10)],
        {"main": 5},
        {"main"},
        {("main", "local", "goal_done"): ["goal:a"]},
    ),
    ([h("goal_done", "goal:a", 5)], {"main": 5}, {"main"}, {}),  # not after the cursor
    ([h("goal_done", "goal:a", 10)], {}, {"other"}, {}),  # the agent does not speak first
    (
        [h("focus_step", "focus:t:2:1", 20), h("focus_step", "focus:t:1:1", 10)],
        {"main": 0},
        {"main"},
        {("main", "local", "focus_step"): ["focus:t:1:1", "focus:t:2:1"]},  # oldest first
    ),
    (
        [h("source_item", "source:s:x", 10), h("source_item", "source:s:x", 11)],
        {"main": 0},
        {"main"},
        {("main", "local", "source_item"): ["source:s:x"]},  # one item once
    ),
    (
        [h("goal_done", "goal:a", 10, user="a"), h("goal_done", "goal:b", 10, user="b")],
        {"main": 0},
        {"main"},
        {("main", "a", "goal_done"): ["goal:a"], ("main", "b", "goal_done"): ["goal:b"]},
    ),
    (
        [h("goal_done", "goal:a", 10), h("source_item", "source:s:y", 10, agent="ops")],
        {"main": 0, "ops": 20},
        {"main", "ops"},
        {("main", "local", "goal_done"): ["goal:a"]},  # each agent's own cursor
    ),
]


@pytest.mark.parametrize(("items", "since", "agents", "expected"), CASES)
def test_fresh(
    items: list[Happening], since: dict[str, int], agents: set[str], expected: dict
) -> None:
    got = {group: [x.key for x in xs] for group, xs in fresh(items, since, agents).items()}
    assert got == expected


def test_a_burst_keeps_the_newest_few_and_the_cursor_never_moves_back() -> None:
    burst = [h("source_item", f"source:s:{i}", 100 + i) for i in range(12)]
    [(_group, kept)] = fresh(burst, {"main": 0}, {"main"}).items()
    assert [x.at_ms for x in kept] == list(range(112 - MAX_PER_TRIGGER, 112))
    assert cursor(kept, "main", 50) == 111
    assert cursor(kept, "main", 500) == 500
    assert cursor(kept, "other", 7) == 7
