"""Open loops (AGENDA): applying one judge frame, expiry and display — seed 001's pure rules.

Every store (memory, JSONL, Postgres) decides with these functions, so one conversation gives the
same AGENDA on each. Embedding cosines, clocks and ids are computed at the boundary and passed in.
The rules live by concept: `grounding` (is it the person's promise), `same_loop` with
`near_miss` (is it one already open), `dismissal` (does the user call one off); the values in
`openloop_model`, the settings in `config`. This module re-exports them where callers expect.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo

from jarvis.agent_layer.openloop.config import OpenLoopConfig
from jarvis.agent_layer.openloop.dismissal import (
    answer_choice,
    find_dismissed,
    phrase_target,
    read_dismissal,
)
from jarvis.agent_layer.openloop.grounding import (
    coverage,
    grounded,
    promise_shaped,
    quote,
    units,
)
from jarvis.agent_layer.openloop.normalise import char_bigrams, compact, normalise
from jarvis.agent_layer.openloop.openloop_model import (
    AgendaChange,
    CandidateLoop,
    CloseReason,
    JudgeFrame,
    LoopNote,
    LoopScope,
    LoopStatus,
    OpenLoop,
    SkippedCandidate,
    SkipReason,
    with_note,
)
from jarvis.agent_layer.openloop.same_loop import (
    MatchRule,
    PairDecision,
    judge_pair,
    loop_match,
    same_loop,
)

__all__ = [
    "AgendaChange",
    "CandidateLoop",
    "CloseReason",
    "JudgeFrame",
    "LoopNote",
    "LoopScope",
    "LoopStatus",
    "MatchRule",
    "OpenLoop",
    "OpenLoopConfig",
    "PairDecision",
    "SkipReason",
    "SkippedCandidate",
    "apply_judgement",
    "char_bigrams",
    "close_loop",
    "expire",
    "find_dismissed",
    "format_numbered",
    "grounded",
    "judge_pair",
    "loop_match",
    "merge_loop",
    "normalise",
    "numbered",
    "reopen_loop",
    "same_loop",
    "would_expire_on_revive",
]


def merge_loop(existing: OpenLoop, incoming: CandidateLoop | OpenLoop, now_ms: int) -> OpenLoop:
    """Only a new due date changes an existing loop; a guessed due never replaces a stated one."""
    if incoming.due_ms is None or incoming.due_ms == existing.due_ms:
        return existing
    if incoming.due_inferred and existing.due_ms is not None and not existing.due_inferred:
        return existing
    due = {"due_ms": incoming.due_ms, "due_inferred": incoming.due_inferred}
    return existing.model_copy(update={**due, "updated_ms": now_ms})


def reopen_loop(closed: OpenLoop, incoming: CandidateLoop, now_ms: int) -> tuple[OpenLoop, str]:
    """A closed loop said again is open again (one row, not a pile): with the new due when the
    words state one, else its own due while that is ahead, else none. Its expiry counts from
    now (`opened_ms`). Returns the loop and a note of what it was."""
    was = f"was {closed.status} ({closed.closed_reason or '-'})"
    due, inferred = incoming.due_ms, incoming.due_inferred
    if due is None and closed.due_ms is not None and closed.due_ms >= now_ms:
        due, inferred = closed.due_ms, closed.due_inferred
    elif due is None and closed.due_ms is not None:
        was += "; its passed due dropped"
    update = {
        "status": "open", "closed_ms": None, "closed_reason": None, "opened_ms": now_ms,
        "updated_ms": now_ms, "due_ms": due, "due_inferred": inferred,
    }  # fmt: skip
    return closed.model_copy(update=update), was


# ---- applying one judge frame --------------------------------------------------------------


def numbered(open_loops: Iterable[OpenLoop]) -> list[OpenLoop]:
    """Open loops newest first: the order (and numbers) the judge and the thought see."""
    return sorted((lp for lp in open_loops if lp.status == "open"), key=_newest_first)


def _newest_first(loop: OpenLoop) -> tuple[int, str]:
    return (-loop.created_ms, loop.id)


def close_loop(loop: OpenLoop, status: LoopStatus, reason: str, now_ms: int) -> OpenLoop:
    closed = {"status": status, "closed_ms": now_ms, "closed_reason": reason}
    return loop.model_copy(update={**closed, "updated_ms": now_ms})


def apply_judgement(
    open_loops: Sequence[OpenLoop],
    judged: JudgeFrame,
    user_input: str,
    now_ms: int,
    cfg: OpenLoopConfig,
    *,
    scope: LoopScope,
    new_id: Callable[[], str],
    cosines: Mapping[tuple[str, str], float] | None = None,
    tz: tzinfo | None = None,
    closed_loops: Sequence[OpenLoop] = (),
    asked: Sequence[str] = (),
    spans: Mapping[tuple[str, str], float] | None = None,
) -> AgendaChange:
    """Apply one judge frame to the loops that were shown to it (numbered as `numbered`).

    Closes the numbered loops (done) and the loops the user's dismissal words point at
    (dismissed, which wins over a number: it is the more exact status). ▲ Dismissal words that
    point at several loops equally close none of them: their ids go to ``change.asked`` (the
    person is asked which) and the judge's numbers for them wait too; ``asked`` (the ids asked
    about last turn) reads this input as the answer (`answer_choice`). Then each new candidate
    is admitted in the seed's order: grounded in the input, a promise in shape (a verb phrase,
    never one word), not a loop this frame closed, not an open loop (then only its due may
    change), ▲ not a recently closed one (``closed_loops``: then it is reopened, never a new
    row). ``cosines`` maps (candidate description, loop id) to the embedding cosine the store
    computed; missing pairs use the character rules only; ``spans`` the cosines of the
    differing spans a cosine merge must explain (`same_loop.differing_spans`). ``tz`` (the
    user's timezone) lets relative days compare as dates ("내일" = "금요일" on a Thursday).
    Every merge and every near miss leaves a `LoopNote` with its reason.
    """
    shown = numbered(open_loops)
    change = AgendaChange()
    dismissed, held = _dismissals(shown, user_input, cfg, asked, change, now_ms)
    wanted = set(judged.closed) | _phrase_numbers(judged.closed_phrases, shown, cfg)
    change.unknown_indices = sorted(i for i in wanted if not 1 <= i <= len(shown))
    for index, loop in enumerate(shown, 1):
        if loop.id in dismissed:
            change.closed.append(close_loop(loop, "dismissed", dismissed[loop.id], now_ms))
        elif index in wanted and loop.id not in held:
            change.closed.append(close_loop(loop, "done", "judge_closed", now_ms))
    closed_ids = {loop.id for loop in change.closed}
    today = datetime.fromtimestamp(now_ms / 1000, tz).date() if tz is not None else None
    frame = _Frame(user_input, now_ms, cfg, scope, new_id, cosines or {}, change, today)
    frame.spans = spans or {}
    noted = {loop.id: loop for loop in change.noted}
    frame.active = {lp.id: noted.get(lp.id, lp) for lp in shown if lp.id not in closed_ids}
    frame.reopenable = {lp.id: lp for lp in closed_loops if lp.status != "open"}
    for candidate in judged.new:
        frame.admit(candidate)
    return change


def _phrase_numbers(phrases: list[str], shown: list[OpenLoop], cfg: OpenLoopConfig) -> set[int]:
    """The numbers of the shown loops the judge's closing phrases name, one loop each."""
    targets = (phrase_target(phrase, shown, cfg) for phrase in phrases)
    return {shown.index(loop) + 1 for loop in targets if loop is not None}


def _dismissals(
    shown: list[OpenLoop],
    user_input: str,
    cfg: OpenLoopConfig,
    asked: Sequence[str],
    change: AgendaChange,
    now_ms: int,
) -> tuple[dict[str, CloseReason], set[str]]:
    """Loops to dismiss (with the reason) and loops held open: asked about now, or last turn."""
    dismissed: dict[str, CloseReason] = {}
    options = [lp for lp in shown if lp.id in asked]
    held: set[str] = set()
    if len(options) > 1:
        held = {lp.id for lp in options}  # the answer decides for these, not the judge
        for loop_id in answer_choice(user_input, options, cfg) or []:
            dismissed[loop_id] = "dismissal_answer"
    reading = read_dismissal(user_input, shown, cfg)
    for loop_id in reading.closed:
        dismissed.setdefault(loop_id, "dismissal_words")
    pending = [i for group in reading.ambiguous for i in group if i not in dismissed]
    change.asked = [lp.id for lp in shown if lp.id in pending]
    for loop in shown:
        if loop.id in change.asked:
            others = ", ".join(i[:8] for i in change.asked if i != loop.id)
            note = LoopNote(at_ms=now_ms, event="asked", text=user_input, detail=f"or {others}")
            change.noted.append(with_note(loop, note))
    return dismissed, held | set(change.asked)


@dataclass
class _Frame:
    """The state of one `apply_judgement` while its candidates are admitted in order."""

    user_input: str
    now_ms: int
    cfg: OpenLoopConfig
    scope: LoopScope
    new_id: Callable[[], str]
    cosines: Mapping[tuple[str, str], float]
    change: AgendaChange
    today: date | None
    active: dict[str, OpenLoop] = field(default_factory=dict)
    reopenable: dict[str, OpenLoop] = field(default_factory=dict)
    spans: Mapping[tuple[str, str], float] = field(default_factory=dict)

    def admit(self, candidate: CandidateLoop) -> None:
        if not compact(candidate.description):
            self._skip(candidate, "empty")
            return
        if not grounded(candidate.description, candidate.evidence, self.user_input, self.cfg):
            self._skip(candidate, "ungrounded")
            return
        # Only the person's words are stored as evidence, never the judge's paraphrase.
        said = quote(candidate.description, candidate.evidence, self.user_input)
        if not promise_shaped(candidate.description, said):
            self._skip(candidate, "not_a_promise")
            return
        judge_evidence = candidate.evidence
        candidate = candidate.model_copy(update={"evidence": said})
        if (found := self._first_same(candidate, self.change.closed)) is not None:
            self._skip(candidate, "closed_in_frame", *found)
        elif (found := self._first_same(candidate, self.active.values())) is not None:
            self._merge(candidate, *found)
        elif (found := self._first_same(candidate, self.reopenable.values())) is not None:
            self._reopen(candidate, *found)
        else:
            self._create(candidate, judge_evidence)

    def _reopen(self, candidate: CandidateLoop, loop: OpenLoop, decision: PairDecision) -> None:
        reopened, detail = reopen_loop(loop, candidate, self.now_ms)
        note = LoopNote(at_ms=self.now_ms, event="reopened", text=candidate.description,
                        decision=decision, detail=detail)  # fmt: skip
        reopened = with_note(reopened, note)
        del self.reopenable[loop.id]
        self.active[reopened.id] = reopened
        self.change.reopened.append(reopened)

    def _skip(
        self,
        candidate: CandidateLoop,
        reason: SkipReason,
        loop: OpenLoop | None = None,
        decision: PairDecision | None = None,
    ) -> None:
        loop_id = loop.id if loop is not None else None
        self.change.skipped.append(
            SkippedCandidate(candidate=candidate, reason=reason, loop_id=loop_id, decision=decision)
        )

    def _decide(self, candidate: CandidateLoop, loop: OpenLoop) -> PairDecision:
        text = candidate.description
        cosine = self.cosines.get((text, loop.id))
        return judge_pair(
            text, loop.description, self.cfg, cosine, today=self.today, spans=self.spans
        )

    def _first_same(
        self, candidate: CandidateLoop, loops: Iterable[OpenLoop]
    ) -> tuple[OpenLoop, PairDecision] | None:
        for loop in loops:
            decision = self._decide(candidate, loop)
            if decision.same:
                return loop, decision
        return None

    def _merge(self, candidate: CandidateLoop, existing: OpenLoop, decision: PairDecision) -> None:
        merged = merge_loop(existing, candidate, self.now_ms)
        event = "duplicate" if merged is existing else "merged"
        note = LoopNote(
            at_ms=self.now_ms, event=event, text=candidate.description, decision=decision,
            detail=candidate.due_source if event == "merged" else "",
        )  # fmt: skip
        merged = with_note(merged, note)
        self.active[merged.id] = merged
        if event == "duplicate":
            self._skip(candidate, "duplicate", existing, decision)
        # A loop created earlier in this frame stays "created", only with the newer due.
        buckets = (self.change.created, self.change.merged, self.change.noted)
        for bucket in buckets:
            for i, loop in enumerate(bucket):
                if loop.id == merged.id:
                    bucket[i] = merged
                    return
        (self.change.noted if event == "duplicate" else self.change.merged).append(merged)

    def _create(self, candidate: CandidateLoop, judge_evidence: str | None) -> None:
        created = _new_loop(candidate, self.scope, self.new_id(), self.now_ms)
        notes = [LoopNote(at_ms=self.now_ms, event="created", text=candidate.description,
                          detail=self._grounding(candidate, judge_evidence))]  # fmt: skip
        # The near misses: which open loops it was kept apart from, and why.
        for loop in self.active.values():
            decision = self._decide(candidate, loop)
            if decision.kept_because in ("near_miss", "reworded"):
                notes.append(LoopNote(at_ms=self.now_ms, event="kept_apart", other_id=loop.id,
                                      text=candidate.description, decision=decision))  # fmt: skip
        created = created.model_copy(update={"notes": notes[:4]})
        self.active[created.id] = created
        self.change.created.append(created)

    def _grounding(self, candidate: CandidateLoop, judge_evidence: str | None) -> str:
        source = units(self.user_input)
        parts = []
        if judge_evidence:
            parts.append(f"evidence {coverage(units(judge_evidence), source):.2f} in input")
        parts.append(f"description {coverage(units(candidate.description), source):.2f}")
        if judge_evidence != candidate.evidence:
            parts.append(f"quoted from input: {candidate.evidence!r}")
        if candidate.due_source:
            parts.append(f"due from {candidate.due_source}")
        return "grounded: " + ", ".join(parts)


def _new_loop(candidate: CandidateLoop, scope: LoopScope, loop_id: str, now_ms: int) -> OpenLoop:
    return OpenLoop(
        id=loop_id,
        agent_id=scope.agent_id,
        user_id=scope.user_id,
        session_id=scope.session_id,
        description=candidate.description.strip(),
        evidence=(candidate.evidence or "").strip(),
        due_ms=candidate.due_ms,
        due_inferred=candidate.due_inferred,
        created_ms=now_ms,
        updated_ms=now_ms,
    )


# ---- expiry and display --------------------------------------------------------------------


def expire(loops: Iterable[OpenLoop], now_ms: int, cfg: OpenLoopConfig) -> list[OpenLoop]:
    """The open loops that expire now, closed as expired: due + EXPIRE_AFTER has passed, or no
    due and older than MAX_AGE. Both bounds are strict: a loop exactly at one stays open. ▲ Both
    count from the (re)opening when that is later than the due: no loop is born expired."""
    expired = []
    for loop in loops:
        reason = _expiry_reason(loop, now_ms, cfg) if loop.status == "open" else None
        if reason is not None:
            expired.append(close_loop(loop, "expired", reason, now_ms))
    return expired


def would_expire_on_revive(loop: OpenLoop, now_ms: int, cfg: OpenLoopConfig) -> bool:
    """Reopening this loop would expire it at once (the API answers 409)."""
    return _expiry_reason(loop, now_ms, cfg) is not None


def _expiry_reason(loop: OpenLoop, now_ms: int, cfg: OpenLoopConfig) -> CloseReason | None:
    # Counted from when the loop was (re)opened too: a promise stated already overdue ("오늘
    # 10시까지" said at 20:00) is shown open, as overdue, for EXPIRE_AFTER before it expires.
    opened = loop.opened_ms or loop.created_ms
    if loop.due_ms is not None:
        last = max(loop.due_ms, opened) + cfg.expire_after_sec * 1000
        return "due_passed" if now_ms > last else None
    return "max_age" if now_ms - opened > cfg.max_age_sec * 1000 else None


def format_numbered(open_loops: Iterable[OpenLoop], tz: tzinfo) -> str:
    """`[1] 설명 (기한 2026-10-12 10:00)` lines, newest first, due in the user's timezone."""
    return "\n".join(f"[{i}] {_shown(lp, tz)}" for i, lp in enumerate(numbered(open_loops), 1))


def _shown(loop: OpenLoop, tz: tzinfo) -> str:
    if loop.due_ms is None:
        return loop.description
    due = datetime.fromtimestamp(loop.due_ms / 1000, tz).strftime("%Y-%m-%d %H:%M")
    # The seed's fixed context format for the judge and the thought, not a UI string.
    return f"{loop.description} (기한 {due})"
