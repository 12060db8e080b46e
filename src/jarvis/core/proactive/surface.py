"""Unspoken thoughts surface in the next answer, when relevant (pure; issue 26).

A speaking-first pass forms candidates; most are not said. Those held back only by the moment
or the bar — below the threshold, a weak factor, quiet hours, a turn running, an approval
waiting, too soon, today's count — are kept (`HELD_BACK`); those the person does not want
(a muted topic), already said (`not_new`) or empty are dropped. When the person's next message
is relevant to a kept thought (`is_relevant`, shared words with its topic or text), it is
offered to that turn's context in a bounded section, this turn only, never in the history, and
marked used so it is offered once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

HELD_BACK = frozenset(
    {
        "below_threshold",
        "weak_factor",
        "quiet_hours",
        "turn_running",
        "approval_pending",
        "too_soon",
        "daily_max",
    }
)
MAX_AGE_MS = 3 * 86_400_000  # an older thought is stale
MAX_OFFERED = 2  # thoughts per turn
MAX_CHARS = 300  # per thought
KEEP = 20  # kept per agent

_WORD = re.compile(r"[a-z0-9][a-z0-9_'-]+|[가-힣]+")
_STOP = frozenset(
    re.split(
        r"\s+",
        "the and for you your with this that what how are was can could would should about from "
        "have has had not but just then them they there here when why which who will its it's "
        "please today now some any our out get got let",
    )
)


@dataclass(frozen=True)
class Unspoken:
    id: str
    user_id: str
    kind: str
    topic: str
    text: str
    at_ms: int
    reason: str  # why it was not said (one of HELD_BACK)
    used: bool = False


def terms(text: str) -> frozenset[str]:
    """English words of 3+ letters (not stop words) and Korean syllable pairs (Korean glues
    particles to words: 보고서를 and 보고서는 share 보고, 고서)."""
    found: set[str] = set()
    for word in _WORD.findall(text.lower()):
        if "가" <= word[0] <= "힣":
            found.update(word[i : i + 2] for i in range(len(word) - 1))
        elif len(word) >= 3 and word not in _STOP:
            found.add(word)
    return frozenset(found)


def is_relevant(message: str, topic: str, text: str) -> bool:
    """At least half of the topic's terms are in the message, or three of the thought's."""
    said = terms(message)
    about = terms(topic)
    if about and len(said & about) * 2 >= len(about):
        return True
    return len(said & terms(text)) >= 3


def keep(
    kept: list[Unspoken], new: list[Unspoken], now_ms: int, limit: int = KEEP
) -> list[Unspoken]:
    """The kept thoughts with the new ones: fresh and unused only, the newest `limit`."""
    alive = [u for u in [*kept, *new] if not u.used and now_ms - u.at_ms <= MAX_AGE_MS]
    return alive[-limit:]


def pick(
    message: str, kept: list[Unspoken], user_id: str, now_ms: int
) -> tuple[list[Unspoken], list[Unspoken]]:
    """(offered this turn, everything kept with the offered marked used): the person's own,
    fresh, unused thoughts relevant to the message, newest first, at most MAX_OFFERED."""
    offered: list[Unspoken] = []
    for item in reversed(kept):
        if len(offered) == MAX_OFFERED:
            break
        if item.user_id != user_id or item.used or now_ms - item.at_ms > MAX_AGE_MS:
            continue
        if is_relevant(message, item.topic, item.text):
            offered.append(item)
    ids = {u.id for u in offered}
    return offered, [replace(u, used=True) if u.id in ids else u for u in kept]


def section(offered: list[Unspoken], header: str) -> str:
    """The bounded section the model sees this turn ("" when nothing is offered)."""
    if not offered:
        return ""
    lines = [f"- {u.text[:MAX_CHARS]}" for u in offered[:MAX_OFFERED]]
    return "\n".join([header, *lines])
