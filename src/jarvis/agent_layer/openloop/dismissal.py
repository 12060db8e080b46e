"""Dismissal words close the open loops they point at, even when the judge misses them (seed 001).

The words that carry the dismissal ("취소됐어", "안 챙겨도 돼") and fillers ("그건") are dropped
before measuring: they say "cancel", not which loop. ▲ Read per clause; a clause whose explicit
time, day, count or amount differs from the loop's does not point at it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from jarvis.agent_layer.openloop.config import OpenLoopConfig
from jarvis.agent_layer.openloop.near_miss import (
    REMINDER_RE,
    Reading,
    compare,
    hard_conflicts,
    read,
)
from jarvis.agent_layer.openloop.normalise import char_bigrams, normalise
from jarvis.agent_layer.openloop.openloop_model import OpenLoop

_FACT_FIELDS = frozenset({"time", "half", "day", "count", "amount"})


_DISMISSAL_RE = re.compile(
    "|".join(
        [
            r"취소", r"철회", r"무산", r"없던\s*일", r"없어졌", r"(?<![가-힣])안\s*해도",
            r"(?<![가-힣])안\s*챙겨", r"(?<![가-힣])안\s*\S+도\s*(?:돼|되|괜찮)", r"하지\s*마",
            r"(?<!까)지\s*마(?:라|요|세요)?(?=$|[\s,.!?~])", r"(?<!까)지\s*말(?:아|자|고|기)",
            r"그만\s*(?:해|하|둬|두)", r"필요\s*없", r"잊어\s*(?:버려|줘|도)",
            r"\bcancel(?:l?ed|s|ling)?\b", r"\bcall(?:ed)?\s+(?:it\s+)?off\b",
            r"\bnever\s*mind\b", r"\bno\s+need\b", r"\bdo(?:n'?t|\s+not)\s+(?:need|have)\s+to\b",
            r"\bdon'?t\s+bother\b", r"\bnot\s+(?:necessary|needed)\b", r"\bunnecessary\b",
            r"\bno\s+longer\s+need", r"\bforget\s+(?:it|about)\b", r"\bdrop\s+it\b", r"\bscrap\b",
            # Bare "stop" would also catch "stop by the bank".
            r"\bstop\s+(?:it|that|this|tracking|reminding)\b",
        ]
    ),
    re.IGNORECASE,
)  # fmt: skip
# Read per clause: "회의는 취소됐고 보고서는 보내야 해" cancels the meeting, not the report.
_CLAUSE_SPLIT_RE = re.compile(
    r"[.!?;\n]+|\s(?:하지만|그런데|근데|대신|but|instead|however|though)\s"
    r"|(?<=[됐했었았였])고\s|(?:지만|는데)\s",
    re.IGNORECASE,
)


def find_dismissed(
    user_input: str, open_loops: Sequence[OpenLoop], cfg: OpenLoopConfig
) -> list[str]:
    """Ids of open loops the user's dismissal words point at (seed: 0.5 shorter-side overlap).

    The words that carry the dismissal ("취소됐어", "안 챙겨도 돼") and fillers ("그건") are
    dropped before measuring: they say "cancel", not which loop, so "그건 취소됐어" closes
    nothing and "보고서는 취소됐어" closes the report. ▲ A clause whose explicit time or date
    differs from the loop's does not point at it. Completion phrases ("보냈어", "done") are
    never read here; only the judge closes those, as they read like questions ("보냈어?").
    """
    pointers = _dismissal_pointers(user_input)
    return [
        loop.id for loop in open_loops if loop.status == "open" and _points_at(pointers, loop, cfg)
    ]


def _points_at(pointers: list[str], loop: OpenLoop, cfg: OpenLoopConfig) -> bool:
    target, described = char_bigrams(loop.description), read(loop.description)
    return any(
        _overlap(char_bigrams(p), target) >= cfg.dismissal_overlap
        and not _facts_conflict(read(p), described)
        for p in pointers
    )


def _facts_conflict(pointer: Reading, loop: Reading) -> bool:
    checks = compare(pointer, loop)
    return any(c.name in _FACT_FIELDS for c in hard_conflicts(checks))


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Overlap measured on the shorter side."""
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def _dismissal_pointers(user_input: str) -> list[str]:
    """Per clause with a dismissal word: the rest of its words, which may name the loop."""
    text = REMINDER_RE.sub(" ", unicodedata.normalize("NFC", user_input).replace("’", "'"))
    pointers = []
    for clause in _CLAUSE_SPLIT_RE.split(text):
        spans = [m.span() for m in _DISMISSAL_RE.finditer(clause)]
        if spans:
            pointers.append(" ".join(_words_outside(clause, spans)))
    return pointers


def _words_outside(clause: str, spans: list[tuple[int, int]]) -> list[str]:
    words = [(m.start(), m.end(), m[0]) for m in re.finditer(r"\S+", clause)]
    kept = [w for s, e, w in words if not any(s < se and ss < e for ss, se in spans)]
    return [w for w in kept if normalise(w) not in _FILLER]


# Words that name no loop: "그건 취소됐어" points at nothing.
_FILLER = frozenset({
    "그건", "그거", "이건", "이거", "저건", "저거", "그것", "이것", "그냥", "이제", "좀", "다",
    "돼", "됐어", "a", "an", "the", "it", "this", "that", "to", "for", "of", "on", "in", "at",
    "by", "my", "our", "your", "me", "we", "i", "you", "please", "just", "now", "더", "이상",
    "is", "are", "was", "were", "be", "been", "got", "any", "anymore", "more", "already",
})  # fmt: skip
