"""The user model's data and its pure update rules (issue 26 item 5).

A closed vocabulary of fields; each fact keeps its source (stated | inferred | corrected), status
(active | tentative | retired), the evidence quote, first and last seen, and a pin. Rules:
- a proposal becomes a fact only if the guard passes its evidence (`guard.check_statement`) and
  the evidence is the person's own words from this turn;
- a contradicting value of a one-value field retires the old fact (kept, never deleted);
- corrected or pinned facts are never changed by extraction;
- a value the person forgot is never brought back by extraction (only by the person);
- an inferred proposal (inference is off by default) takes the same guard, makes a `tentative`
  fact that becomes `active` once seen in two sessions (or once the person states it), and never
  retires a fact the model already holds as active.
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
INFER_SESSIONS = 2  # an inferred fact is tentative until seen in this many sessions


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
    sessions: tuple[str, ...] = ()  # an inferred fact: the sessions it was seen in

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
    inferred: bool = False  # read between the lines, not stated


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
    *,
    session_id: str = "",
    infer: bool = False,
) -> tuple[list[Fact], list[Decision]]:
    """The facts after this turn's proposals (pure). `said` is the person's own words this turn;
    `new_id` prefixes the ids of facts created here; `session_id` is where they were said;
    `infer` lets inferred proposals in (off by default)."""
    current = list(facts)
    decisions: list[Decision] = []
    for index, proposal in enumerate(proposals):
        fact_id = f"{new_id}-{index}"
        turn = _Turn(said, now_ms, fact_id, session_id, infer)
        current, decision = _apply_one(current, proposal, turn)
        decisions.append(decision)
    return current, decisions


@dataclass(frozen=True)
class _Turn:
    said: str
    now_ms: int
    fact_id: str
    session_id: str
    infer: bool


def _seen_again(fact: Fact, p: Proposal, t: _Turn) -> tuple[Fact, str]:
    """A live fact with the proposal's value: seen again — a tentative one is confirmed by the
    person stating it, or by an inference in a second session."""
    if fact.status != "tentative":
        return replace(fact, last_seen_ms=t.now_ms), "seen_again"
    if not p.inferred:
        stated = replace(fact, source="stated", status="active", evidence=p.evidence.strip())
        return replace(stated, last_seen_ms=t.now_ms), "confirmed"
    sessions = tuple(dict.fromkeys([*fact.sessions, t.session_id]))
    status: Status = "active" if len(sessions) >= INFER_SESSIONS else "tentative"
    confirmed = replace(fact, sessions=sessions, status=status, last_seen_ms=t.now_ms)
    return confirmed, "confirmed" if status == "active" else "seen_again"


def _apply_one(facts: list[Fact], p: Proposal, t: _Turn) -> tuple[list[Fact], Decision]:
    def refuse(reason: str) -> tuple[list[Fact], Decision]:
        return facts, Decision(p, False, reason)

    said, now_ms, fact_id = t.said, t.now_ms, t.fact_id
    value, evidence = p.value.strip(), p.evidence.strip()
    if p.inferred and not t.infer:
        return refuse("inference_off")
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
        seen, reason = _seen_again(existing[0], p, t)
        return [seen if f is existing[0] else f for f in facts], Decision(p, True, reason)
    live = [f for f in same_field if f.status != "retired"]
    if field in SINGLE and any(f.protected for f in live):
        return refuse("protected")
    if p.inferred and field in SINGLE and any(f.status == "active" for f in live):
        return refuse("held")  # an inference never retires what the model already holds
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
            source="inferred" if p.inferred else "stated",
            status="tentative" if p.inferred else "active",
            evidence=evidence,
            first_seen_ms=now_ms,
            last_seen_ms=now_ms,
            sessions=(t.session_id,) if p.inferred else (),
        )
    )
    return out, Decision(p, True, "inferred" if p.inferred else "stated")


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
