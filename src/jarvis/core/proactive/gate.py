"""Speaking first — the gate (pure). The model proposes candidates with 1–5 ratings; code decides.

Order: hard vetoes first (quiet hours, a turn running, an approval pending, a muted topic, the
daily count, too soon after the last one, nothing new), then a score that mixes the model's
ratings with what code knows (urgency from a due time, the learner's acceptance estimate), then
a per-kind threshold. Where Inner Thoughts speaks at a mean rating ≥ 3.5 — the model's number
alone — here the model's number is one input and every veto is code.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from jarvis.core.proactive.learner import is_muted

Kind = Literal["reminder", "follow_up", "suggestion", "news"]
RATING_KEYS = ("relevance", "urgency", "impact", "originality", "timing")


@dataclass(frozen=True)
class Candidate:
    kind: Kind
    text: str
    topic: str
    ratings: dict[str, float]  # 1–5 per RATING_KEYS, from the reflection call
    due_in_min: float | None = None  # an AGENDA item's due time, from code (not the model)


@dataclass(frozen=True)
class Situation:
    """What code knows about the moment (computed at the edge, passed in)."""

    local_hour: int
    turn_running: bool = False
    approval_pending: bool = False
    minutes_since_last: float | None = None  # since the last proactive message (None: never)
    today_count: int = 0
    muted_topics: frozenset[str] = frozenset()
    recent_topics: frozenset[str] = frozenset()  # said lately: not new
    acceptance: dict[str, float] = field(default_factory=dict)  # the learner's, per kind


@dataclass(frozen=True)
class Policy:
    quiet_start: int = 22  # quiet hours in the person's timezone, [start, end)
    quiet_end: int = 8
    daily_max: int = 3
    min_gap_min: float = 60.0
    thresholds: dict[str, float] = field(
        default_factory=lambda: {
            "reminder": 0.7,
            "follow_up": 0.7,
            "suggestion": 0.7,
            "news": 0.75,
        }
    )


@dataclass(frozen=True)
class Verdict:
    speak: bool
    score: float
    reason: str  # a veto's name, "below_threshold" or "speak"


def _quiet(hour: int, policy: Policy) -> bool:
    if policy.quiet_start <= policy.quiet_end:
        return policy.quiet_start <= hour < policy.quiet_end
    return hour >= policy.quiet_start or hour < policy.quiet_end


def veto(candidate: Candidate, s: Situation, policy: Policy) -> str | None:
    """The first hard veto that applies, or None."""
    urgent = (
        candidate.kind == "reminder"
        and candidate.due_in_min is not None
        and (candidate.due_in_min <= 60)
    )
    checks = [
        ("turn_running", s.turn_running),
        ("approval_pending", s.approval_pending),
        ("quiet_hours", _quiet(s.local_hour, policy) and not urgent),
        # the same topic, or one the person's words name ("stop telling me about the weather")
        ("muted_topic", is_muted(candidate.topic, s.muted_topics)),
        ("daily_max", s.today_count >= policy.daily_max),
        (
            "too_soon",
            s.minutes_since_last is not None
            and s.minutes_since_last < policy.min_gap_min
            and not urgent,
        ),
        ("not_new", candidate.topic in s.recent_topics),
        ("empty", not candidate.text.strip()),
        # The model itself rates one factor bad (≤ 2): a reason to stay silent, however high
        # the others are (Inner Thoughts' mean would speak).
        ("weak_factor", min(candidate.ratings.get(k, 1.0) for k in RATING_KEYS) <= 2.0),
    ]
    return next((name for name, hit in checks if hit), None)


def score(candidate: Candidate, s: Situation) -> float:
    """0–1: the model's ratings (as 0–1) weighed with code's urgency and the learner's estimate."""
    rated = [min(5.0, max(1.0, candidate.ratings.get(k, 1.0))) for k in RATING_KEYS]
    model = (sum(rated) / len(rated) - 1.0) / 4.0
    # The model's weakest factor holds it back: one bad factor is a reason to stay silent.
    weakest = (min(rated) - 1.0) / 4.0
    acceptance = s.acceptance.get(candidate.kind, 0.5)
    plain = 0.6 * model + 0.2 * weakest + 0.2 * acceptance
    if candidate.due_in_min is None:  # nothing due: code has no urgency of its own to add
        return round(plain, 4)
    due = candidate.due_in_min
    code_urgency = 1.0 if due <= 60 else 0.6 if due <= 240 else 0.2
    # a due time only adds: a far one never makes a thought weaker than none
    urgent = 0.45 * model + 0.15 * weakest + 0.2 * code_urgency + 0.2 * acceptance
    return round(max(plain, urgent), 4)


def decide(candidate: Candidate, s: Situation, policy: Policy) -> Verdict:
    vetoed = veto(candidate, s, policy)
    value = score(candidate, s)
    if vetoed is not None:
        return Verdict(False, value, vetoed)
    threshold = policy.thresholds.get(candidate.kind, 0.8)
    return Verdict(value >= threshold, value, "speak" if value >= threshold else "below_threshold")


def choose(
    candidates: list[Candidate], s: Situation, policy: Policy
) -> tuple[Candidate | None, list[Verdict]]:
    """At most one message per pass: the best candidate that passes, or None."""
    verdicts = [decide(c, s, policy) for c in candidates]
    passing = [(v.score, i) for i, v in enumerate(verdicts) if v.speak]
    if not passing:
        return None, verdicts
    return candidates[max(passing)[1]], verdicts


def fingerprint(inputs: dict[str, Any]) -> str:
    """The situation's fingerprint: an unchanged one costs no model call."""
    canonical = json.dumps(inputs, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def within_budget(used_today: int, estimate: int, daily_tokens: int) -> bool:
    """Before every call: the call's estimate must fit in what is left of today's budget."""
    return estimate > 0 and used_today + estimate <= daily_tokens
