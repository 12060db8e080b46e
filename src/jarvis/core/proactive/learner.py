"""The feedback learner (per agent, pure counts): what the person did with proactive messages.

👍, "do it" and a reply count as accepted; 👎, "stop telling me about X" and being ignored as
rejected. A kind's threshold rises while its measured precision is below the target; two
dismissals of a topic mute it for a while. Everything is plain data the person can see and reset.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

Feedback = Literal["thumbs_up", "do_it", "reply", "thumbs_down", "stop_topic", "ignored"]
_ACCEPTED = frozenset({"thumbs_up", "do_it", "reply"})
MUTE_AFTER = 2
MUTE_DAYS = 14
TARGET_PRECISION = 0.7
STEP = 0.05
MAX_RAISE = 0.25
MIN_SAMPLES = 4


@dataclass(frozen=True)
class KindCounts:
    accepted: int = 0
    rejected: int = 0

    @property
    def shown(self) -> int:
        return self.accepted + self.rejected

    @property
    def precision(self) -> float | None:
        return self.accepted / self.shown if self.shown else None


@dataclass(frozen=True)
class LearnerState:
    kinds: dict[str, KindCounts] = field(default_factory=dict)
    dismissals: dict[str, int] = field(default_factory=dict)  # topic → dismissals
    muted_until_ms: dict[str, int] = field(default_factory=dict)  # topic → until


def record(
    state: LearnerState, kind: str, topic: str, feedback: Feedback, now_ms: int
) -> LearnerState:
    counts = state.kinds.get(kind, KindCounts())
    if feedback in _ACCEPTED:
        counts = replace(counts, accepted=counts.accepted + 1)
    else:
        counts = replace(counts, rejected=counts.rejected + 1)
    kinds = {**state.kinds, kind: counts}
    dismissals, muted = dict(state.dismissals), dict(state.muted_until_ms)
    if feedback in ("thumbs_down", "stop_topic"):
        dismissals[topic] = dismissals.get(topic, 0) + 1
        if feedback == "stop_topic" or dismissals[topic] >= MUTE_AFTER:
            muted[topic] = now_ms + MUTE_DAYS * 86_400_000
    return LearnerState(kinds, dismissals, muted)


def threshold(state: LearnerState, kind: str, base: float) -> float:
    """The kind's threshold: raised by STEP per 10 points of precision below the target (after
    MIN_SAMPLES messages), at most MAX_RAISE."""
    counts = state.kinds.get(kind, KindCounts())
    precision = counts.precision
    if precision is None or counts.shown < MIN_SAMPLES or precision >= TARGET_PRECISION:
        return base
    raise_by = min(MAX_RAISE, STEP * round((TARGET_PRECISION - precision) * 10 + 0.5))
    return round(min(1.0, base + raise_by), 4)


def acceptance(state: LearnerState, kind: str) -> float:
    """A smoothed acceptance estimate (Laplace, prior 0.5)."""
    counts = state.kinds.get(kind, KindCounts())
    return (counts.accepted + 1) / (counts.shown + 2)


def muted(state: LearnerState, now_ms: int) -> frozenset[str]:
    return frozenset(topic for topic, until in state.muted_until_ms.items() if until > now_ms)


def reset() -> LearnerState:
    return LearnerState()
