"""Replies and ignored messages, counted by code (pure; issue 26).

A proactive message is **answered by a reply** when the person writes to the same agent (in any
of their sessions of it) after it, within `REPLY_WINDOW_MS` (30 minutes) and before the agent's
next proactive message to them. It is **ignored** when neither a button (👍 / 👎 / "do it"), a
stop in words nor a reply came before that window closed — its 30 minutes passed, or the next
message came first. Until then it is open. Each message is counted once; an explicit answer
given later replaces the implicit one (learner.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

REPLY_WINDOW_MS = 30 * 60_000

Implicit = Literal["reply", "ignored"]


@dataclass(frozen=True)
class Sent:
    """One proactive message to one person, as the counting sees it."""

    at_ms: int
    answered: bool  # a button, a stop in words or an earlier reply / ignore counted it


def closes_at(at_ms: int, next_at_ms: int | None, window_ms: int = REPLY_WINDOW_MS) -> int:
    """When the message's reply window closes: its window's end or the next message."""
    end = at_ms + window_ms
    return end if next_at_ms is None else min(end, next_at_ms)


def outcome(
    at_ms: int,
    next_at_ms: int | None,
    wrote_at_ms: int | None,
    now_ms: int,
    window_ms: int = REPLY_WINDOW_MS,
) -> Implicit | None:
    """One unanswered message: "reply" when the person wrote (at `wrote_at_ms`) after it and
    before its window closed; "ignored" when the window closed first; None while open."""
    end = closes_at(at_ms, next_at_ms, window_ms)
    if wrote_at_ms is not None and at_ms <= wrote_at_ms < end:
        return "reply"
    if now_ms >= end:
        return "ignored"
    return None


def settle(
    sent: Sequence[Sent],
    wrote_at_ms: int | None,
    now_ms: int,
    window_ms: int = REPLY_WINDOW_MS,
) -> list[tuple[int, Implicit]]:
    """For one person's messages of one agent, oldest first: the (index, answer) of every
    unanswered one that is now a reply (`wrote_at_ms`: the person just wrote) or ignored."""
    out: list[tuple[int, Implicit]] = []
    for i, message in enumerate(sent):
        if message.answered or message.at_ms > now_ms:
            continue
        next_at = sent[i + 1].at_ms if i + 1 < len(sent) else None
        found = outcome(message.at_ms, next_at, wrote_at_ms, now_ms, window_ms)
        if found is not None:
            out.append((i, found))
    return out
