"""Whether a goal may take another unattended turn (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Exhausted = Literal["turns", "tokens", "time"]


@dataclass(frozen=True)
class GoalBudget:
    max_turns: int = 10
    max_tokens: int = 200_000
    max_seconds: int = 3600


@dataclass(frozen=True)
class GoalUsage:
    turns: int = 0
    tokens: int = 0
    started_ms: int = 0


def out_of_budget(usage: GoalUsage, budget: GoalBudget, now_ms: int) -> Exhausted | None:
    """The first limit reached (turns, then tokens, then time), or None to go on."""
    if usage.turns >= budget.max_turns:
        return "turns"
    if usage.tokens >= budget.max_tokens:
        return "tokens"
    if usage.started_ms and now_ms - usage.started_ms >= budget.max_seconds * 1000:
        return "time"
    return None
