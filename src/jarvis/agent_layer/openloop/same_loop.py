"""Is a new description the same promise as an open loop? (seed 001 "이미 있는 약속인가").

``judge_pair`` first runs the field-wise near-miss guard (`near_miss`); a hard difference keeps
the two apart whatever else agrees. Otherwise the first rule that holds merges them:

| rule      | condition                                                                  |
|-----------|----------------------------------------------------------------------------|
| equal     | the same text after `normalise` (spaces and case aside)                    |
| contained | the shorter side (6+ characters) inside the longer                         |
| synonyms  | the same words after the tables (stems, synonyms, honorifics): every field |
|           | agrees or is stated on one side only, and a word of substance is shared    |
| jaccard   | whitespace-free character-bigram Jaccard ≥ 0.4                             |
| cosine    | the embedding cosine ≥ the embedder's calibrated threshold                 |

A soft difference (a full rewording, a verb the tables do not know) stops the four text rules;
only the cosine may merge it. Without a calibrated threshold the cosine is recorded, never
used: an uncalibrated embedder names candidates only. Every decision carries its reason.

▲ A cosine never merges a difference it cannot explain (issue 30): each soft difference's
spans ("laptop" / "monitor", "print" / "scan") must be placed close by the embedder when
embedded on their own (``spans``: cosines the boundary computed for `differing_spans`, at or
above the embedder's calibrated ``cfg.span_threshold``). A negation, an undoing word or an
opposite (`tables.OPPOSITES`) is a hard difference and never reaches the cosine. The decision's
``explained`` names how each differing word was explained.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from jarvis.agent_layer.openloop.config import OpenLoopConfig
from jarvis.agent_layer.openloop.near_miss import (
    FieldCheck,
    compare,
    hard_conflicts,
    read,
    soft_conflicts,
)
from jarvis.agent_layer.openloop.normalise import char_bigrams, compact

MatchRule = Literal["equal", "contained", "synonyms", "jaccard", "cosine"]
KeepReason = Literal["near_miss", "reworded", "no_rule", "empty"]


class PairDecision(BaseModel):
    """Why two descriptions are, or are not, one promise."""

    same: bool
    rule: MatchRule | None = None
    kept_because: KeepReason | None = None
    fields: list[FieldCheck] = Field(default_factory=list)
    jaccard: float = 0.0
    cosine: float | None = None
    threshold: float | None = None
    explained: list[str] = Field(default_factory=list)  # how each differing word was explained

    def explain(self) -> str:
        """One line, e.g. ``merged by synonyms; agree: action, object; one side: day``."""
        head = f"merged by {self.rule}" if self.same else f"kept apart ({self.kept_because})"
        parts = [head]
        for verdict, label in (("differ", "differ"), ("agree", "agree"), ("one_sided", "one side")):
            names = [_shown(c) if verdict == "differ" else c.name for c in self.fields
                     if c.verdict == verdict]  # fmt: skip
            if names:
                parts.append(f"{label}: {', '.join(names)}")
        if self.cosine is not None:
            limit = f"{self.threshold:.3f}" if self.threshold is not None else "uncalibrated"
            parts.append(f"cosine {self.cosine:.3f} (threshold {limit})")
        if self.explained:
            parts.append("explained: " + "; ".join(self.explained))
        return "; ".join(parts)


def _shown(check: FieldCheck) -> str:
    soft = "" if check.hard else " (soft)"
    return f"{check.name} {'/'.join(check.a) or '—'} ≠ {'/'.join(check.b) or '—'}{soft}"


def judge_pair(
    a: str,
    b: str,
    cfg: OpenLoopConfig,
    cosine: float | None = None,
    *,
    today: date | None = None,
    spans: Mapping[tuple[str, str], float] | None = None,
) -> PairDecision:
    """The rule that makes ``a`` and ``b`` one loop, or why they stay apart.

    ``today`` (the user's local date) resolves relative days: without it "내일" and "금요일"
    never count as one day. ``cfg.cosine_threshold`` is the embedder's calibrated threshold;
    None leaves the cosine out of the decision.
    """
    ca, cb = compact(a), compact(b)
    threshold = cfg.cosine_threshold
    if not ca or not cb:
        return PairDecision(same=False, kept_because="empty", cosine=cosine, threshold=threshold)
    fields = compare(read(a, today), read(b, today))
    jaccard = _jaccard(char_bigrams(a), char_bigrams(b))
    decision = PairDecision(
        same=False, fields=fields, jaccard=round(jaccard, 3), cosine=cosine, threshold=threshold
    )
    if ca == cb:  # the same words, spacing and case aside: nothing to guard
        return decision.model_copy(update={"same": True, "rule": "equal"})
    if hard_conflicts(fields):
        return decision.model_copy(update={"kept_because": "near_miss"})
    rule = None if soft_conflicts(fields) else _text_rule(ca, cb, fields, jaccard, cfg)
    explained = _by_text(rule, fields)
    if rule is None and cosine is not None and threshold is not None and cosine >= threshold:
        explained, all_explained = _by_embedder(fields, spans or {}, cfg.span_threshold)
        rule = "cosine" if all_explained else None
    if rule is None:
        kept: KeepReason = "reworded" if soft_conflicts(fields) else "no_rule"
        return decision.model_copy(update={"kept_because": kept, "explained": explained})
    return decision.model_copy(update={"same": True, "rule": rule, "explained": explained})


def differing_spans(a: str, b: str, *, today: date | None = None) -> list[tuple[str, str]]:
    """The spans a cosine merge of ``a`` and ``b`` must explain: each soft difference's words
    on either side ("laptop", "monitor"), to be embedded on their own at the boundary."""
    return [_span_pair(c) for c in soft_conflicts(compare(read(a, today), read(b, today)))]


def _span_pair(check: FieldCheck) -> tuple[str, str]:
    def side(words: list[str]) -> str:
        return " ".join(w.lstrip("?") for part in words for w in part.split("+") if w)

    return side(check.a), side(check.b)


def _by_text(rule: MatchRule | None, fields: list[FieldCheck]) -> list[str]:
    one_sided = [f"{c.name} {'/'.join(c.a or c.b)}: said on one side only (elaboration)"
                 for c in fields if c.verdict == "one_sided"]  # fmt: skip
    if rule == "synonyms":
        return ["every other word the same after the tables (stems, synonyms)", *one_sided]
    return one_sided if rule is not None else []


def _by_embedder(
    fields: list[FieldCheck], spans: Mapping[tuple[str, str], float], limit: float | None
) -> tuple[list[str], bool]:
    """Each soft difference explained by the embedder placing its spans close, or not."""
    notes, ok = _by_text("jaccard", fields), True
    for check in soft_conflicts(fields):
        pair = _span_pair(check)
        close = spans.get(pair)
        shown = f"{check.name} {pair[0]} ≠ {pair[1]}"
        if close is None or limit is None:
            why = "no span cosine" if close is None else "span threshold uncalibrated"
            notes.append(f"{shown}: unexplained ({why})")
            ok = False
        elif close >= limit:
            notes.append(f"{shown}: paraphrase, span cosine {close:.3f} ≥ {limit:.3f}")
        else:
            notes.append(f"{shown}: unexplained, span cosine {close:.3f} < {limit:.3f}")
            ok = False
    return notes, ok


def _text_rule(
    ca: str, cb: str, fields: list[FieldCheck], jaccard: float, cfg: OpenLoopConfig
) -> MatchRule | None:
    if ca == cb:
        return "equal"
    short, long = sorted((ca, cb), key=len)
    if len(short) >= cfg.contain_min_chars and short in long:
        return "contained"
    if _shares_substance(fields):
        return "synonyms"
    if jaccard >= cfg.jaccard_threshold:
        return "jaccard"
    return None


def _shares_substance(fields: list[FieldCheck]) -> bool:
    """An object both sides name, or (with no object at all) the same action ("2시 반 상담"
    vs "2시 30분 상담"; the guard has already ruled out another person or time)."""
    by_name = {c.name: c for c in fields}
    thing = by_name.get("object")
    if thing is not None:
        return bool(thing.shared)
    action = by_name.get("action")
    return action is not None and action.verdict == "agree"


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


_Spans = Mapping[tuple[str, str], float] | None


def same_loop(
    a: str,
    b: str,
    cfg: OpenLoopConfig,
    cosine: float | None = None,
    *,
    today: date | None = None,
    spans: _Spans = None,
) -> bool:
    return judge_pair(a, b, cfg, cosine, today=today, spans=spans).same


def loop_match(
    a: str,
    b: str,
    cfg: OpenLoopConfig,
    cosine: float | None = None,
    *,
    today: date | None = None,
    spans: _Spans = None,
) -> MatchRule | None:
    """Which rule makes two loop descriptions one loop, or None (see `judge_pair`)."""
    return judge_pair(a, b, cfg, cosine, today=today, spans=spans).rule
