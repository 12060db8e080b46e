"""The user model's data and its pure update rules (issue 26 item 5).

A closed vocabulary of fields; each fact keeps its source (stated | inferred | corrected), status
(active | tentative | retired), the evidence quote, first and last seen, and a pin. Rules:
- a proposal becomes a fact only if the guard passes its evidence (`guard.check_statement`) and
  the evidence is the person's own words from this turn;
- a contradicting value of a one-value field retires the old fact (kept, never deleted);
- corrected or pinned facts are never changed by extraction;
- a value the person forgot is never brought back by extraction (only by the person).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Literal, get_args

from jarvis.core.user_model.guard import check_statement

Field = Literal[
    "name",
    "language",
    "timezone",
    "role",
    "expertise",
    "communication_style",
    "working_hours",
    "interests",
    "dislikes",
    "projects",
    "people",
]
FIELDS: tuple[Field, ...] = get_args(Field)
# One current value; a new one retires the old (the rest hold a list of values).
SINGLE: frozenset[str] = frozenset(
    {"name", "language", "timezone", "role", "communication_style", "working_hours"}
)
Source = Literal["stated", "inferred", "corrected"]
Status = Literal["active", "tentative", "retired"]
VALUE_MAX = 120
EVIDENCE_MAX = 300


@dataclass(frozen=True)
class Fact:
    id: str
    field: Field
    value: str
    source: Source
    status: Status
    evidence: str
    first_seen_ms: int
    last_seen_ms: int
    pinned: bool = False
    retired_reason: str = ""  # contradicted, forgotten, corrected

    @property
    def protected(self) -> bool:
        """Extraction never changes it: the person said so."""
        return self.pinned or self.source == "corrected"


@dataclass(frozen=True)
class Proposal:
    """What a model or the pattern extractor proposes; the guard and the rules decide."""

    field: str
    value: str
    evidence: str


@dataclass(frozen=True)
class Decision:
    proposal: Proposal
    accepted: bool
    reason: str  # stated, or why not: unknown_field, not_grounded, the guard's reason, protected, …


def same_value(a: str, b: str) -> bool:
    return _norm(a) == _norm(b)


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def apply_proposals(
    facts: list[Fact],
    proposals: list[Proposal],
    said: str,
    now_ms: int,
    new_id: str,
) -> tuple[list[Fact], list[Decision]]:
    """The facts after this turn's proposals (pure). `said` is the person's own words this turn;
    `new_id` prefixes the ids of facts created here."""
    current = list(facts)
    decisions: list[Decision] = []
    for index, proposal in enumerate(proposals):
        current, decision = _apply_one(current, proposal, said, now_ms, f"{new_id}-{index}")
        decisions.append(decision)
    return current, decisions


def _apply_one(
    facts: list[Fact], p: Proposal, said: str, now_ms: int, fact_id: str
) -> tuple[list[Fact], Decision]:
    def refuse(reason: str) -> tuple[list[Fact], Decision]:
        return facts, Decision(p, False, reason)

    value, evidence = p.value.strip(), p.evidence.strip()
    if p.field not in FIELDS:
        return refuse("unknown_field")
    if not value or len(value) > VALUE_MAX or not evidence or len(evidence) > EVIDENCE_MAX:
        return refuse("malformed")
    if _norm(evidence) not in _norm(said) or _norm(value) not in _norm(evidence):
        return refuse("not_grounded")  # only the person's own words, as typed this turn
    guard = check_statement(evidence)
    if not guard.fact:
        return refuse(guard.reason)
    field = p.field
    same_field = [f for f in facts if f.field == field]
    if any(
        f.status == "retired" and f.retired_reason == "forgotten" and same_value(f.value, value)
        for f in same_field
    ):
        return refuse("forgotten")  # deleted facts do not come back
    existing = [f for f in same_field if f.status != "retired" and same_value(f.value, value)]
    if existing:
        seen = replace(existing[0], last_seen_ms=now_ms)
        return [seen if f is existing[0] else f for f in facts], Decision(p, True, "seen_again")
    live = [f for f in same_field if f.status != "retired"]
    if field in SINGLE and any(f.protected for f in live):
        return refuse("protected")
    out = [
        replace(f, status="retired", retired_reason="contradicted", last_seen_ms=now_ms)
        if field in SINGLE and f in live
        else f
        for f in facts
    ]
    out.append(
        Fact(
            id=fact_id,
            field=field,
            value=value,
            source="stated",
            status="active",
            evidence=evidence,
            first_seen_ms=now_ms,
            last_seen_ms=now_ms,
        )
    )
    return out, Decision(p, True, "stated")


def set_by_person(
    facts: list[Fact], field: Field, value: str, now_ms: int, fact_id: str
) -> list[Fact]:
    """The person's own edit: a corrected fact; the field's other one-value facts retire."""
    out = [
        replace(f, status="retired", retired_reason="corrected", last_seen_ms=now_ms)
        if f.field == field
        and f.status != "retired"
        and (field in SINGLE or same_value(f.value, value))
        else f
        for f in facts
    ]
    out.append(
        Fact(fact_id, field, value.strip()[:VALUE_MAX], "corrected", "active", "", now_ms, now_ms)
    )
    return out


def forget(facts: list[Fact], fact_id: str, now_ms: int) -> tuple[list[Fact], bool]:
    """Retire a fact as forgotten (kept, so extraction cannot bring it back)."""
    hit = False
    out = []
    for f in facts:
        if f.id.startswith(fact_id) and f.status != "retired" and not hit:
            hit = True
            f = replace(
                f, status="retired", retired_reason="forgotten", pinned=False, last_seen_ms=now_ms
            )
        out.append(f)
    return out, hit


def pin(facts: list[Fact], fact_id: str, pinned: bool = True) -> tuple[list[Fact], bool]:
    hit = False
    out = []
    for f in facts:
        if f.id.startswith(fact_id) and f.status != "retired" and not hit:
            hit = True
            f = replace(f, pinned=pinned)
        out.append(f)
    return out, hit


def active(facts: list[Fact]) -> list[Fact]:
    return [f for f in facts if f.status == "active"]


def user_section(facts: list[Fact], header: str, max_facts: int = 12, max_chars: int = 600) -> str:
    """The `[사용자]` section the model sees: active facts, pinned and newest first, bounded."""
    shown = sorted(active(facts), key=lambda f: (not f.pinned, -f.last_seen_ms))[:max_facts]
    lines: list[str] = []
    used = len(header)
    for f in shown:
        line = f"- {f.field}: {f.value}"
        if used + len(line) + 1 > max_chars:
            break
        lines.append(line)
        used += len(line) + 1
    return f"{header}\n" + "\n".join(lines) if lines else ""
