"""The feedback learner (per agent, pure counts): what the person did with proactive messages.

Each message counts once, as one of six answers. 👍 and "do it" accept it, a reply (the person
wrote to the agent soon after it, `replies.py`) accepts it weakly; 👎 and "stop telling me about
X" reject it, being ignored (no answer before the next message or the window's end) rejects it
weakly (`WEIGHTS`). A kind's threshold rises while its measured (weighted) precision is below
the target; two dismissals of a topic — or one "stop telling me" — mute it for a while. An
explicit answer given after an implicit one (a 👍 on a card already counted as a reply)
replaces it. Everything is plain data the person can see and reset: all, one kind, one topic.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from jarvis.core.proactive.surface import terms

Feedback = Literal["thumbs_up", "do_it", "reply", "thumbs_down", "stop_topic", "ignored"]
FEEDBACKS: tuple[Feedback, ...] = (
    "thumbs_up",
    "thumbs_down",
    "do_it",
    "reply",
    "ignored",
    "stop_topic",
)
# (accepted, rejected) weight of one answer: a reply is a weak 👍, being ignored a weak 👎.
WEIGHTS: dict[str, tuple[float, float]] = {
    "thumbs_up": (1.0, 0.0),
    "do_it": (1.0, 0.0),
    "reply": (0.5, 0.0),
    "thumbs_down": (0.0, 1.0),
    "stop_topic": (0.0, 1.0),
    "ignored": (0.0, 0.5),
}
IMPLICIT = frozenset({"reply", "ignored"})  # counted by code; an explicit answer replaces them
MUTE_AFTER = 2
MUTE_DAYS = 14
MUTE_MS = MUTE_DAYS * 86_400_000
TARGET_PRECISION = 0.7
STEP = 0.05
MAX_RAISE = 0.25
MIN_SAMPLES = 4
KEEP_MOVES = 10


@dataclass(frozen=True)
class Move:
    """The kind's threshold moved: by how much over the base, before and after, and why."""

    at_ms: int
    before: float  # the raise over the base threshold before this answer
    after: float
    feedback: str


@dataclass(frozen=True)
class KindCounts:
    counts: dict[str, int] = field(default_factory=dict)  # answer → messages
    moves: tuple[Move, ...] = ()  # newest last, at most KEEP_MOVES

    def of(self, feedback: str) -> int:
        return self.counts.get(feedback, 0)

    @property
    def accepted(self) -> float:
        return sum(WEIGHTS[f][0] * n for f, n in self.counts.items() if f in WEIGHTS)

    @property
    def rejected(self) -> float:
        return sum(WEIGHTS[f][1] * n for f, n in self.counts.items() if f in WEIGHTS)

    @property
    def shown(self) -> float:
        return self.accepted + self.rejected

    @property
    def precision(self) -> float | None:
        return self.accepted / self.shown if self.shown else None


@dataclass(frozen=True)
class LearnerState:
    kinds: dict[str, KindCounts] = field(default_factory=dict)
    dismissals: dict[str, int] = field(default_factory=dict)  # topic → dismissals
    muted_until_ms: dict[str, int] = field(default_factory=dict)  # topic → until


def raised(counts: KindCounts) -> float:
    """How far the kind's threshold is raised: STEP per 10 points of (weighted) precision below
    the target, after MIN_SAMPLES (weighted) messages, at most MAX_RAISE."""
    precision = counts.precision
    if precision is None or counts.shown < MIN_SAMPLES or precision >= TARGET_PRECISION:
        return 0.0
    return round(min(MAX_RAISE, STEP * round((TARGET_PRECISION - precision) * 10 + 0.5)), 4)


def _counted(
    state: LearnerState, kind: str, change: dict[str, int], feedback: str, now_ms: int
) -> dict[str, KindCounts]:
    old = state.kinds.get(kind, KindCounts())
    counts = dict(old.counts)
    for name, delta in change.items():
        counts[name] = max(0, counts.get(name, 0) + delta)
    new = replace(old, counts={k: v for k, v in counts.items() if v})
    before, after = raised(old), raised(new)
    if before != after:
        new = replace(new, moves=(*old.moves, Move(now_ms, before, after, feedback))[-KEEP_MOVES:])
    return {**state.kinds, kind: new}


def record(
    state: LearnerState,
    kind: str,
    topic: str,
    feedback: Feedback,
    now_ms: int,
    replaces: str = "",
) -> LearnerState:
    """Count one answer on a message of `kind` about `topic`; `replaces` is the implicit answer
    (reply, ignored) the message was counted with before, taken back."""
    change: dict[str, int] = {feedback: 1}
    if replaces in IMPLICIT:
        change[replaces] = change.get(replaces, 0) - 1
    kinds = _counted(state, kind, change, feedback, now_ms)
    dismissals, muted = dict(state.dismissals), dict(state.muted_until_ms)
    if feedback in ("thumbs_down", "stop_topic"):
        dismissals[topic] = dismissals.get(topic, 0) + 1
        if feedback == "stop_topic" or dismissals[topic] >= MUTE_AFTER:
            muted[topic] = now_ms + MUTE_MS
    return LearnerState(kinds, dismissals, muted)


def mute(state: LearnerState, topic: str, now_ms: int) -> LearnerState:
    """Mute a topic the person named in words without a message to count it on."""
    return replace(state, muted_until_ms={**state.muted_until_ms, topic: now_ms + MUTE_MS})


def threshold(state: LearnerState, kind: str, base: float) -> float:
    """The kind's threshold: the base raised by what the answers taught (see `raised`)."""
    raise_by = raised(state.kinds.get(kind, KindCounts()))
    return round(min(1.0, base + raise_by), 4) if raise_by else base


def acceptance(state: LearnerState, kind: str) -> float:
    """A smoothed acceptance estimate (Laplace, prior 0.5) over the weighted answers."""
    counts = state.kinds.get(kind, KindCounts())
    return (counts.accepted + 1) / (counts.shown + 2)


def muted(state: LearnerState, now_ms: int) -> frozenset[str]:
    return frozenset(topic for topic, until in state.muted_until_ms.items() if until > now_ms)


def same_topic(named: str, topic: str) -> bool:
    """Whether words the person used (`named`) name a candidate's `topic`: the same text, or
    at least half of the named terms in the topic (English words, Korean syllable pairs)."""
    if named.strip().lower() == topic.strip().lower():
        return True
    wanted, have = terms(named), terms(topic)
    shared = len(wanted & have)
    return bool(wanted) and shared > 0 and shared * 2 >= len(wanted)


def is_muted(topic: str, muted_topics: frozenset[str]) -> bool:
    return topic in muted_topics or any(same_topic(m, topic) for m in muted_topics)


def reset() -> LearnerState:
    return LearnerState()


def reset_kind(state: LearnerState, kind: str) -> LearnerState:
    return replace(state, kinds={k: v for k, v in state.kinds.items() if k != kind})


def unmute(state: LearnerState, topic: str) -> LearnerState:
    """Forget a topic's mute and its dismissals (the next 👎 starts from one again)."""
    return LearnerState(
        state.kinds,
        {k: v for k, v in state.dismissals.items() if k != topic},
        {k: v for k, v in state.muted_until_ms.items() if k != topic},
    )
