"""`focus_proposal` (pure): when a thought's decision opens the turn with a `focus` call."""

from __future__ import annotations

import pytest

from jarvis.agent_layer.thought.engine import ThoughtFrame
from jarvis.core.thinking.proposals import focus_proposal

TOOLS = ["bash", "focus"]


def frame(
    decision: str = "start_focus", confidence: float = 0.9, meant: str = "비교 조사"
) -> ThoughtFrame:
    return ThoughtFrame(meant, decision, confidence, "- 단계")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("thought", "tools", "text", "objective"),
    [
        (frame(), TOOLS, "조사해 줘", "비교 조사"),
        (frame(meant="  세 엔진을\n 비교  "), TOOLS, "x", "세 엔진을 비교"),
        (frame(meant=" "), TOOLS, "오래 걸려도 조사해 줘", "오래 걸려도 조사해 줘"),
        (frame(meant="가" * 600), TOOLS, "x", "가" * 500),
        (frame(confidence=0.5), TOOLS, "x", "비교 조사"),
        (frame(confidence=0.49), TOOLS, "x", None),  # not sure enough: a note only
        (frame("use_tools"), TOOLS, "x", None),
        (frame("answer"), TOOLS, "x", None),
        (None, TOOLS, "x", None),  # no thought (off, failed, timed out)
        (frame(), ["bash"], "x", None),  # no focus tool in this turn
        (frame(), [], "x", None),  # nobody to ask (an unattended turn)
        (frame(meant=""), TOOLS, "  ", None),
    ],
)
def test_focus_proposal(
    thought: ThoughtFrame | None, tools: list[str], text: str, objective: str | None
) -> None:
    call = focus_proposal(thought, text, tools, "call_1")
    if objective is None:
        assert call is None
    else:
        assert call is not None
        assert (call.id, call.name, call.arguments) == ("call_1", "focus", {"objective": objective})
