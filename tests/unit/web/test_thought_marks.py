"""Which events leave a line of the "thoughts" view for a reload, and how they are bounded (a pure
table)."""

from __future__ import annotations

from typing import Any

import pytest

from jarvis.ui.web.thought_marks import MAX_CANDIDATES, MAX_CHARS, thought_mark

ROUTE = {"type": "thought_route", "think": True, "p_think": 0.9, "reason": "why", "engine": "auto"}
CANDIDATE = {"kind": "follow_up", "topic": "보고서", "text": "같이 볼까요?", "score": 0.82}
PASS = {
    "type": "proactive_pass",
    "pass_id": "pass:main:1",
    "agent_id": "main",
    "trigger": "goal_done",
    "reason": "spoke",
    "at_ms": 5,
    "candidates": [{**CANDIDATE, "spoken": True, "why": "spoke", "extra": "x"}],
}

CASES: list[tuple[dict[str, Any], dict[str, Any] | None]] = [
    (ROUTE, {"kind": "thought", "event": ROUTE}),
    (
        {
            "type": "inner_thought",
            "interpretation": "i" * 900,
            "decision": "answer",
            "confidence": 0.5,
            "frame": "- a",
        },
        {
            "kind": "thought",
            "event": {
                "type": "inner_thought",
                "interpretation": "i" * MAX_CHARS,
                "decision": "answer",
                "confidence": 0.5,
                "frame": "- a",
            },
        },
    ),
    (
        {"type": "thought_end", "ok": False, "reason": "timeout"},
        {"kind": "thought", "event": {"type": "thought_end", "ok": False, "reason": "timeout"}},
    ),
    (
        PASS,
        {
            "kind": "thought",
            "event": {
                **{k: v for k, v in PASS.items() if k != "candidates"},
                "candidates": [{**CANDIDATE, "spoken": True, "why": "spoke"}],  # no "extra"
            },
        },
    ),
    # Other events leave no thought mark (a filler is not a thought: it goes at the answer).
    ({"type": "proactive_message", "kind": "filler", "text": "…"}, None),
    ({"type": "message_update", "text_delta": "x"}, None),
    ({"type": "tool_execution_start"}, None),
]


@pytest.mark.parametrize(("event", "mark"), CASES)
def test_thought_marks(event: dict[str, Any], mark: dict[str, Any] | None) -> None:
    assert thought_mark(event) == mark


def test_a_pass_keeps_at_most_three_candidates_and_odd_values_are_cut() -> None:
    many = {**PASS, "candidates": [CANDIDATE] * 9 + ["not a dict"], "reason": {"x": "y" * 500}}
    mark = thought_mark(many)
    assert mark is not None
    assert len(mark["event"]["candidates"]) == MAX_CANDIDATES
    assert len(mark["event"]["reason"]) == 80
    assert thought_mark({**PASS, "candidates": "junk"}) == {
        "kind": "thought",
        "event": {**{k: v for k, v in PASS.items() if k != "candidates"}, "candidates": []},
    }
