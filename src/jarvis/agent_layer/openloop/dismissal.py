"""Dismissal words close the open loops they point at, even when the judge misses them (seed 001).

The words that carry the dismissal ("취소됐어", "안 챙겨도 돼") and fillers ("그건") are dropped
before measuring: they say "cancel", not which loop. ▲ Read per clause; a clause whose explicit
time, day, count or amount differs from the loop's does not point at it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

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


@dataclass(frozen=True)
class Dismissal:
    """What the user's dismissal words point at: loops to close, and groups to ask about."""

    closed: list[str] = field(default_factory=list)
    # Each group: the open loops one clause points at equally well ("the report is cancelled"
    # with two report loops open). None of them is closed until the person says which.
    ambiguous: list[list[str]] = field(default_factory=list)


def find_dismissed(
    user_input: str, open_loops: Sequence[OpenLoop], cfg: OpenLoopConfig
) -> list[str]:
    """Ids of open loops the user's dismissal words point at without doubt (seed: 0.5
    shorter-side overlap); see `read_dismissal`."""
    return read_dismissal(user_input, open_loops, cfg).closed


def read_dismissal(
    user_input: str, open_loops: Sequence[OpenLoop], cfg: OpenLoopConfig
) -> Dismissal:
    """Which open loops the user's dismissal words point at, clause by clause.

    The words that carry the dismissal ("취소됐어", "안 챙겨도 돼") and fillers ("그건") are
    dropped before measuring: they say "cancel", not which loop, so "그건 취소됐어" closes
    nothing and "보고서는 취소됐어" closes the report. ▲ A clause whose explicit time or date
    differs from the loop's does not point at it. ▲ A clause points at the loops it overlaps
    best: one → closed; several equally ("the report is cancelled" with two report loops) →
    ambiguous, all stay open and the person is asked. Completion phrases ("보냈어", "done")
    are never read here; only the judge closes those, as they read like questions ("보냈어?").
    """
    loops = [loop for loop in open_loops if loop.status == "open"]
    closed: list[str] = []
    groups: list[list[str]] = []
    for pointer in _dismissal_pointers(user_input):
        for group in _pointed_groups(pointer, loops, cfg):
            if len(group) == 1:
                closed += [i for i in group if i not in closed]
            else:
                groups.append(group)
    ambiguous = [g for g in ([i for i in grp if i not in closed] for grp in groups) if len(g) > 1]
    return Dismissal(closed=closed, ambiguous=ambiguous)


def phrase_target(phrase: str, loops: Sequence[OpenLoop], cfg: OpenLoopConfig) -> OpenLoop | None:
    """The one loop a phrase the judge wrote to close names (the dismissal words' rule: the
    shorter side's bigrams overlap, no fact conflicts); None when it names none or several."""
    groups = _pointed_groups(phrase, loops, cfg)
    if len(groups) != 1 or len(groups[0]) != 1:
        return None
    return next(lp for lp in loops if lp.id == groups[0][0])


def _pointed_groups(
    pointer: str, loops: Sequence[OpenLoop], cfg: OpenLoopConfig
) -> list[list[str]]:
    """The loops one clause points at, grouped by the words they answer to. A loop whose
    matched words another loop also holds, with more besides, is not meant ("분기 보고서" →
    the quarterly report, not the weekly one); loops that answer to the same words ("the
    report" → two reports) form one group: the clause cannot tell them apart."""
    mine = char_bigrams(pointer)
    covered = {
        lp.id: mine & char_bigrams(lp.description) for lp in loops if _points_at(pointer, lp, cfg)
    }
    kept = [i for i, c in covered.items() if not any(c < o for o in covered.values())]
    groups: list[list[str]] = []
    for loop_id in kept:
        joined = [g for g in groups if any(covered[loop_id] & covered[other] for other in g)]
        merged = [i for g in joined for i in g] + [loop_id]
        groups = [g for g in groups if g not in joined] + [merged]
    return groups


def _points_at(pointer: str, loop: OpenLoop, cfg: OpenLoopConfig) -> bool:
    target = char_bigrams(loop.description)
    return _overlap(char_bigrams(pointer), target) >= cfg.dismissal_overlap and not (
        _facts_conflict(read(pointer), read(loop.description))
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


# ---- the answer to "which one?" ------------------------------------------------------------

_NEITHER_RE = re.compile(
    r"둘\s*다\s*아니|다\s*아니|아무\s*것도|(?<![가-힣])아니(?:야|요|에요)?(?:$|[\s,.!?])"
    r"|\bneither\b|\bnone\b|\bno(?:pe)?\b(?!\s+need)|\bnot\s+(?:those|these|either|any)\b",
    re.IGNORECASE,
)
_ALL_RE = re.compile(
    r"둘\s*다|셋\s*다|모두|전부|(?<![가-힣])다\s*(?:취소|닫|빼|없)|\bboth\b|\ball\b", re.IGNORECASE
)
_ORDINAL_WORDS: tuple[tuple[str, int], ...] = (
    (r"첫\s*번째|첫째|(?<![가-힣])첫\s*(?:거|것)|\bfirst\b|\b1st\b", 1),
    (r"두\s*번째|둘째|\bsecond\b|\b2nd\b", 2),
    (r"세\s*번째|셋째|\bthird\b|\b3rd\b", 3),
    (r"네\s*번째|넷째|\bfourth\b|\b4th\b", 4),
)
_NUMBER_RE = re.compile(r"(?<![\d:./])\[?([1-9])\]?\s*(?:번째|번|\))?(?![\d:./%])")


def answer_choice(
    user_input: str, options: Sequence[OpenLoop], cfg: OpenLoopConfig
) -> list[str] | None:
    """The person's answer to "which of these is cancelled?" (options numbered from 1): the
    ids meant, [] for "neither", None when the words answer nothing (then nothing closes)."""
    text = unicodedata.normalize("NFC", user_input)
    if _NEITHER_RE.search(text):
        return []
    if _ALL_RE.search(text):
        return [lp.id for lp in options]
    picked = {int(m[1]) for m in _NUMBER_RE.finditer(text)}
    picked |= {n for pattern, n in _ORDINAL_WORDS if re.search(pattern, text, re.IGNORECASE)}
    if picked:
        chosen = [lp.id for i, lp in enumerate(options, 1) if i in picked]
        return chosen or None
    words = " ".join(
        w for w in re.findall(r"\S+", _DISMISSAL_RE.sub(" ", text)) if normalise(w) not in _FILLER
    )
    groups = _pointed_groups(words, options, cfg) if words else []
    named = [g[0] for g in groups if len(g) == 1]
    return named if named and len(named) == len(groups) else None
