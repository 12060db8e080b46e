"""Which session events leave a mark for the HUD's reload (a pure table)."""

from __future__ import annotations

from typing import Any

import pytest

from jarvis.ui.web.routes_sessions import snippet
from jarvis.ui.web.screen_marks import mark_for

CASES: list[tuple[dict[str, Any], dict[str, int], int, dict[str, Any] | None]] = [
    ({"type": "tool_execution_start", "tool_call_id": "c1"}, {}, 1000, None),
    (
        {"type": "tool_execution_end", "tool_call_id": "c1", "decision": None},
        {"c1": 1000},
        2500,
        {"kind": "tool", "call": "c1", "ms": 1500, "killed": False},
    ),
    (
        {
            "type": "tool_execution_end",
            "tool_call_id": "c1",
            "decision": {"outcome": "aborted", "reason": "aborted"},
        },
        {"c1": 1000},
        1200,
        {"kind": "tool", "call": "c1", "ms": 200, "killed": True},
    ),
    # An end without a start seen here (the page attached mid-turn): no run time invented.
    (
        {"type": "tool_execution_end", "tool_call_id": "c9", "decision": {"outcome": "deny"}},
        {},
        5000,
        {"kind": "tool", "call": "c9", "ms": 0, "killed": False},
    ),
    ({"type": "agent_end", "ended_by": "aborted"}, {"c1": 1}, 9, {"kind": "stopped"}),
    ({"type": "agent_end", "ended_by": "answer"}, {}, 9, None),
    ({"type": "agent_end", "ended_by": "deadline"}, {}, 9, None),
    ({"type": "message_update"}, {}, 9, None),
]


@pytest.mark.parametrize(("event", "started", "now", "mark"), CASES)
def test_marks(
    event: dict[str, Any], started: dict[str, int], now: int, mark: dict[str, Any] | None
) -> None:
    assert mark_for(event, dict(started), now) == mark


def test_a_start_is_remembered_and_a_stop_forgets_running_calls() -> None:
    started: dict[str, int] = {}
    mark_for({"type": "tool_execution_start", "tool_call_id": "c1"}, started, 10)
    assert started == {"c1": 10}
    mark_for({"type": "agent_end", "ended_by": "aborted"}, started, 20)
    assert started == {}


@pytest.mark.parametrize(
    ("text", "query", "found"),
    [
        ("The capital is Paris", "PARIS", "The capital is Paris"),
        ("line one\nline   two", "one line", "line one line two"),
        ("&lt;b&gt; bold", "<b>", "<b> bold"),  # stored escaped, searched as typed
        ("nothing", "else", None),
        ("x" * 200 + "needle" + "y" * 200, "needle", None),
    ],
)
def test_snippet(text: str, query: str, found: str | None) -> None:
    got = snippet(text, query)
    if found is None and "needle" in text:
        assert got is not None and "needle" in got and got.startswith("…") and got.endswith("…")
        assert len(got) <= 82
        return
    assert got == found
