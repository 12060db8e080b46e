"""The proactive core's pass: trigger → fingerprint → budget → one reflection call → the gate.

The reflection call (`inner_thought_reflection.md`) only proposes up to three candidates with
ratings and has no tools; code decides whether anything is said. A pass never runs a tool — a
spoken thought's "do it" starts an ordinary turn through the tool gate elsewhere. Off by default.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from jarvis.core.proactive.gate import (
    RATING_KEYS,
    Candidate,
    Policy,
    Situation,
    Verdict,
    choose,
    fingerprint,
    within_budget,
)

MAX_CANDIDATES = 3
_KINDS = ("reminder", "follow_up", "suggestion", "news")
_ARRAY = re.compile(r"\[.*\]", re.DOTALL)

# The reflection call: a prompt in, the model's text and the tokens it used out. It has no tools.
Reflect = Callable[[str], Awaitable[tuple[str, int]]]


def parse_candidates(text: str) -> list[Candidate]:
    """Up to three well-formed candidates from the model's JSON array; anything else is dropped."""
    match = _ARRAY.search(text)
    if match is None:
        return []
    try:
        data = json.loads(match.group(0))
    except ValueError:
        return []
    out: list[Candidate] = []
    for item in data if isinstance(data, list) else []:
        if not isinstance(item, dict) or item.get("kind") not in _KINDS:
            continue
        text_ = item.get("utterance", item.get("text"))  # the template's key is `utterance`
        topic, ratings = item.get("topic"), item.get("ratings")
        if (
            not isinstance(text_, str)
            or not isinstance(topic, str)
            or not isinstance(ratings, dict)
        ):
            continue
        if not all(isinstance(ratings.get(k), int | float) for k in RATING_KEYS):
            continue
        scores = {k: float(ratings[k]) for k in RATING_KEYS}
        out.append(Candidate(item["kind"], text_.strip()[:300], topic.strip()[:60], scores))
        if len(out) == MAX_CANDIDATES:
            break
    return out


@dataclass
class PassResult:
    said: Candidate | None
    called: bool
    reason: str  # unchanged, over_budget, no_candidates, failed, spoke, silent
    verdicts: list[Verdict]
    candidates: list[Candidate] = field(default_factory=list)  # verdicts[i] is candidates[i]'s


class ProactiveCore:
    def __init__(
        self,
        reflect: Reflect,
        policy: Policy,
        *,
        daily_tokens: int = 20_000,
        estimate_tokens: int = 1_500,
        timeout_sec: float = 30.0,
    ) -> None:
        self.reflect = reflect
        self.policy = policy
        self.daily_tokens = daily_tokens
        self.estimate_tokens = estimate_tokens
        self.timeout_sec = timeout_sec
        self.used_today = 0
        self.day = ""
        self.fingerprints: dict[str, str] = {}  # per person (or other key): the last situation

    async def run_pass(
        self,
        inputs: dict[str, Any],
        prompt: str,
        situation: Situation,
        day: str,
        due: dict[str, float] | None = None,
        *,
        key: str = "",
        estimate: int | None = None,
    ) -> PassResult:
        """One pass for one trigger. `inputs` are what the situation is made of (its fingerprint),
        `day` the person's local date (the budget resets with it), `due` topic → minutes until
        an AGENDA item is due (code's urgency), `key` whose fingerprint it is, `estimate` this
        call's upper bound of tokens (the core's default when None)."""
        if day != self.day:
            self.day, self.used_today = day, 0
        mark = fingerprint(inputs)
        if mark == self.fingerprints.get(key):
            return PassResult(None, False, "unchanged", [])
        reserve = self.estimate_tokens if estimate is None else estimate
        if not within_budget(self.used_today, reserve, self.daily_tokens):
            return PassResult(None, False, "over_budget", [])
        self.fingerprints[key] = mark
        self.used_today += reserve  # reserved before the call, settled after
        try:
            text, used = await asyncio.wait_for(self.reflect(prompt), self.timeout_sec)
        except Exception:  # a failed pass says nothing and changes nothing else
            return PassResult(None, True, "failed", [])
        # Settled down to what was used, never above the reservation (the call's upper bound).
        self.used_today += min(max(0, used), reserve) - reserve
        candidates = [
            replace(c, due_in_min=(due or {}).get(c.topic)) for c in parse_candidates(text)
        ]
        if not candidates:
            return PassResult(None, True, "no_candidates", [])
        said, verdicts = choose(candidates, situation, self.policy)
        return PassResult(said, True, "spoke" if said else "silent", verdicts, candidates)
