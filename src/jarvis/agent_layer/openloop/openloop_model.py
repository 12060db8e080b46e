"""The open-loop values: a loop, what the judge proposes, and what one judge frame changed."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from jarvis.agent_layer.openloop.same_loop import PairDecision

LoopStatus = Literal["open", "done", "dismissed", "expired"]
SkipReason = Literal["empty", "ungrounded", "not_a_promise", "closed_in_frame", "duplicate"]
CloseReason = Literal[
    "judge_closed", "dismissal_words", "dismissal_answer", "due_passed", "max_age"
]
NoteEvent = Literal[
    "created", "merged", "duplicate", "kept_apart", "closed_in_frame", "reopened", "asked"
]
NOTES_KEPT = 12  # the newest notes per loop; older ones are dropped so a loop stays small


class LoopNote(BaseModel):
    """One judgement about a loop, kept with it for `jarvis openloop explain <id>`."""

    at_ms: int
    event: NoteEvent
    text: str  # the candidate description that was judged
    other_id: str | None = None  # kept_apart: the open loop it was compared with
    decision: PairDecision | None = None
    detail: str = ""  # created: how it was grounded, where its due came from

    def line(self) -> str:
        why = self.decision.explain() if self.decision is not None else ""
        other = f" vs {self.other_id[:8]}" if self.other_id else ""
        parts = [p for p in (f"{self.event}{other}: {self.text!r}", why, self.detail) if p]
        return " — ".join(parts)


class OpenLoop(BaseModel):
    id: str
    agent_id: str
    user_id: str
    session_id: str
    description: str
    evidence: str = ""
    due_ms: int | None = None
    due_inferred: bool = False
    status: LoopStatus = "open"
    created_ms: int
    updated_ms: int
    closed_ms: int | None = None
    closed_reason: str | None = None
    # When a restatement last reopened it (None: never): expiry counts from here, not created.
    opened_ms: int | None = None
    notes: list[LoopNote] = Field(default_factory=list)


class CandidateLoop(BaseModel):
    """A loop the AGENDA judge wrote; nothing is stored until `apply_judgement` admits it."""

    description: str
    evidence: str | None = None
    due_ms: int | None = None
    due_inferred: bool = False
    due_source: str = ""  # where the due came from ("judge", "user words: 내일 3시")


class JudgeFrame(BaseModel):
    """One judge answer: new loops, and the shown loops to close — by their 1-based numbers,
    or (seed 001: "번호(또는 문구)") by a phrase naming one of them."""

    new: list[CandidateLoop] = Field(default_factory=list)
    closed: list[int] = Field(default_factory=list)
    closed_phrases: list[str] = Field(default_factory=list)


class LoopScope(BaseModel):
    """Whose conversation the new loops belong to."""

    agent_id: str
    user_id: str
    session_id: str


class SkippedCandidate(BaseModel):
    candidate: CandidateLoop
    reason: SkipReason
    loop_id: str | None = None  # the loop it matched, for closed_in_frame / duplicate
    decision: PairDecision | None = None  # why it matched that loop


class AgendaChange(BaseModel):
    """What one judge frame changed; callers emit `agenda_changed` only when `changed`."""

    created: list[OpenLoop] = Field(default_factory=list)
    merged: list[OpenLoop] = Field(default_factory=list)
    closed: list[OpenLoop] = Field(default_factory=list)
    skipped: list[SkippedCandidate] = Field(default_factory=list)
    unknown_indices: list[int] = Field(default_factory=list)
    # Loops that only gained a note (a duplicate without a new due): stored, not "changed".
    noted: list[OpenLoop] = Field(default_factory=list)
    # Closed loops a restatement opened again (a repeated promise never piles up rows).
    reopened: list[OpenLoop] = Field(default_factory=list)
    # A dismissal that pointed at several open loops: their ids, all kept open until the person
    # says which (see `dismissal.answer_choice`).
    asked: list[str] = Field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.created or self.merged or self.closed or self.reopened)


def with_note(loop: OpenLoop, note: LoopNote) -> OpenLoop:
    return loop.model_copy(update={"notes": [*loop.notes, note][-NOTES_KEPT:]})
