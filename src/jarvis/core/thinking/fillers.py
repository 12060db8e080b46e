"""Fillers: one short line while a thought or a slow first round runs (issue 26 item 3).

Code chooses it from what is pending, and only when the predicted wait — the rolling median of
this model's recent waits — is long; never the same line as one of the session's last three.
A filler is an event only (`proactive_message {kind: filler}`): never in the history, never
shown to the model.
"""

from __future__ import annotations

import statistics
from collections import OrderedDict, deque
from collections.abc import Sequence
from typing import Literal

from jarvis.common.i18n import Language, t

Pending = Literal["thought", "first_round"]
LINES_PER_KIND = 4
_SAMPLES = 20
_SESSIONS = 1024


def filler_lines(pending: Pending, lang: Language) -> list[str]:
    return [t(f"filler.{pending}.{i}", lang) for i in range(1, LINES_PER_KIND + 1)]


def choose_filler(
    pending: Pending,
    predicted_wait_sec: float | None,
    threshold_sec: float,
    last_three: Sequence[str],
    lang: Language,
) -> str | None:
    """The filler to show, or None: no evidence of a long wait, or every line was said lately."""
    if predicted_wait_sec is None or predicted_wait_sec < threshold_sec:
        return None
    recent = set(last_three[-3:])
    for line in filler_lines(pending, lang):
        if line not in recent:
            return line
    return None


def predicted_wait(samples: Sequence[float]) -> float | None:
    """The median of the recent waits (None before the first)."""
    return statistics.median(samples) if samples else None


class WaitTracker:
    """Rolling waits per key (a model's first token, a model's thought) and each session's last
    fillers; bounded in keys, samples and sessions."""

    def __init__(self) -> None:
        self._waits: dict[str, deque[float]] = {}
        self._said: OrderedDict[str, deque[str]] = OrderedDict()

    def record(self, key: str, seconds: float) -> None:
        self._waits.setdefault(key, deque(maxlen=_SAMPLES)).append(seconds)

    def predicted(self, key: str) -> float | None:
        return predicted_wait(self._waits.get(key, ()))

    def last_three(self, session_id: str) -> list[str]:
        return list(self._said.get(session_id, ()))

    def said(self, session_id: str, line: str) -> None:
        lines = self._said.setdefault(session_id, deque(maxlen=3))
        lines.append(line)
        self._said.move_to_end(session_id)
        while len(self._said) > _SESSIONS:
            self._said.popitem(last=False)
