"""OpenLoopService: the boundary around the pure AGENDA rules — clock, ids, deadlines, a store."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from jarvis.agent_layer.openloop.judge_parse import fill_due
from jarvis.agent_layer.openloop.openloop_types import (
    AgendaChange,
    JudgeFrame,
    LoopScope,
    OpenLoop,
    OpenLoopConfig,
    apply_judgement,
    close_loop,
    expire,
    numbered,
    would_expire_on_revive,
)
from jarvis.agent_layer.openloop.same_loop import differing_spans
from jarvis.agent_layer.openloop.store import OpenLoopStore
from jarvis.common.clock import Clock, new_id
from jarvis.common.logging import get_logger
from jarvis.model_layer.embeddings import Embedder, cosine

_log = get_logger("jarvis.openloop")

StatusResult = Literal["ok", "not_found", "forbidden", "conflict"]
CLOSED_SHOWN = 10


class LoopView(BaseModel):
    """A loop as the AGENDA card shows it (due in the user's timezone)."""

    id: str
    description: str
    status: str
    due_ms: int | None
    due_text: str | None
    due_inferred: bool
    created_ms: int
    closed_ms: int | None
    session_id: str = ""  # where it was said (the HUD's ACTIVITY shows it after a reload)


class Agenda(BaseModel):
    open: list[LoopView]
    closed: list[LoopView]


class OpenLoopService:
    def __init__(
        self,
        store: OpenLoopStore,
        cfg: OpenLoopConfig,
        tz: ZoneInfo,
        clock: Clock,
        embedder: Embedder | None = None,
    ) -> None:
        self.store = store
        self.cfg = cfg
        self.tz = tz
        self.clock = clock
        self.embedder = embedder or Embedder()
        # The same-loop cosine threshold is the embedder's calibration unless set here; an
        # uncalibrated embedder's cosines are recorded in the reasons but never merge.
        threshold = cfg.cosine_threshold
        if threshold is None:
            threshold = self.embedder.loop_threshold
        span = cfg.span_threshold
        if span is None:
            span = self.embedder.span_threshold
        self.judging_cfg = cfg.model_copy(
            update={"cosine_threshold": threshold, "span_threshold": span}
        )
        if self.embedder.name != "none" and threshold is None:
            _log.warning(
                "embedder %s has no calibrated same-loop threshold: its cosine only names "
                "candidates (calibrate with experiments/loop_embedding.py)",
                self.embedder.name,
            )
        # Loop embeddings by (id, description): computed once per loop.
        self._vectors: dict[tuple[str, str], list[float]] = {}
        # Per session: the loops the person was last asked "which one?" about. One turn only:
        # the next input answers it or the question lapses (the loops stay open).
        self._asked: dict[str, list[str]] = {}

    async def current(self, agent_id: str, user_id: str) -> list[OpenLoop]:
        """Open loops, newest first, after applying expiry."""
        loops = await self.store.for_user(agent_id, user_id)
        expired = expire(loops, self.clock.now_ms(), self.cfg)
        await self.store.save(expired)
        gone = {loop.id for loop in expired}
        return numbered(lp for lp in loops if lp.id not in gone)

    async def apply(
        self,
        scope: LoopScope,
        user_input: str,
        frame: JudgeFrame,
        shown: list[OpenLoop],
        said: datetime | None = None,
    ) -> AgendaChange:
        """Apply a judge frame to the loops that were shown to the judge, and store the change.
        `said`: when the words were said, if they were judged later ("by friday" is read then)."""
        now = self.clock.now_ms()
        # The judge drops the `@` due about half the time: read it from the user's words.
        said = said or datetime.fromtimestamp(now / 1000, self.tz)
        filled = fill_due(frame, user_input, said, self.tz)
        closed = await self._recently_closed(scope, now)
        cosines = await self._cosines(filled, [*shown, *closed])
        spans = await self._span_cosines(filled, [*shown, *closed], cosines, now)
        change = apply_judgement(
            shown,
            filled,
            user_input,
            now,
            self.judging_cfg,
            scope=scope,
            new_id=lambda: new_id()[:16],
            cosines=cosines,
            tz=self.tz,
            closed_loops=closed,
            asked=self._asked.pop(scope.session_id, []),
            spans=spans,
        )
        if change.asked:
            self._asked[scope.session_id] = change.asked
        await self.store.save(
            [*change.created, *change.merged, *change.reopened, *change.closed, *change.noted]
        )
        log_change(change, now)
        return change

    async def _recently_closed(self, scope: LoopScope, now_ms: int) -> list[OpenLoop]:
        """Loops closed within MAX_AGE: a promise said again reopens one of these."""
        since = now_ms - self.cfg.max_age_sec * 1000
        loops = await self.store.for_user(scope.agent_id, scope.user_id)
        closed = [lp for lp in loops if lp.status != "open" and (lp.closed_ms or 0) >= since]
        return sorted(closed, key=lambda lp: lp.closed_ms or 0, reverse=True)

    async def explain(self, agent_id: str, user_id: str, prefix: str) -> list[OpenLoop]:
        """The loops (any status) whose id starts with ``prefix``, notes included."""
        return await self.store.find_prefix(agent_id, user_id, prefix)

    async def _cosines(
        self, frame: JudgeFrame, shown: list[OpenLoop]
    ) -> dict[tuple[str, str], float]:
        """Embedding cosines computed at the boundary; empty when there is no embedder."""
        if not frame.new or not shown or self.embedder.name == "none":
            return {}
        missing = [lp for lp in shown if (lp.id, lp.description) not in self._vectors]
        texts = [c.description for c in frame.new] + [lp.description for lp in missing]
        vectors = await self.embedder.embed(texts)
        if vectors is None or len(vectors) != len(texts):
            return {}
        for loop, vector in zip(missing, vectors[len(frame.new) :], strict=True):
            self._vectors[(loop.id, loop.description)] = vector
        return {
            (candidate.description, loop.id): cosine(
                vector, self._vectors[(loop.id, loop.description)]
            )
            for candidate, vector in zip(frame.new, vectors, strict=False)
            for loop in shown
        }

    async def _span_cosines(
        self,
        frame: JudgeFrame,
        loops: list[OpenLoop],
        cosines: dict[tuple[str, str], float],
        now_ms: int,
    ) -> dict[tuple[str, str], float]:
        """For the pairs the cosine could merge: the cosine of each differing-span pair embedded
        on its own (issue 30: a cosine merge explains every difference)."""
        limit = self.judging_cfg.cosine_threshold
        if limit is None or not cosines:
            return {}
        today = datetime.fromtimestamp(now_ms / 1000, self.tz).date()
        wanted = {
            pair
            for c in frame.new
            for lp in loops
            if cosines.get((c.description, lp.id), 0.0) >= limit
            for pair in differing_spans(c.description, lp.description, today=today)
            if all(pair)
        }
        texts = list(dict.fromkeys(t for pair in wanted for t in pair))
        if not texts:
            return {}
        vectors = await self.embedder.embed(texts)
        if vectors is None or len(vectors) != len(texts):
            return {}
        by_text = dict(zip(texts, vectors, strict=True))
        return {(x, y): cosine(by_text[x], by_text[y]) for x, y in wanted}

    async def agenda(self, agent_id: str, user_id: str) -> Agenda:
        open_loops = await self.current(agent_id, user_id)
        closed = [lp for lp in await self.store.for_user(agent_id, user_id) if lp.status != "open"]
        closed.sort(key=lambda lp: lp.closed_ms or lp.updated_ms, reverse=True)
        return Agenda(
            open=[self._view(lp) for lp in open_loops],
            closed=[self._view(lp) for lp in closed[:CLOSED_SHOWN]],
        )

    async def set_status(self, loop_id: str, user_id: str, status: str) -> StatusResult:
        loop = await self.store.get(loop_id)
        if loop is None:
            return "not_found"
        if loop.user_id != user_id:
            return "forbidden"
        now = self.clock.now_ms()
        if status == "open":
            if would_expire_on_revive(loop, now, self.cfg):
                return "conflict"
            revived = loop.model_copy(
                update={
                    "status": "open",
                    "closed_ms": None,
                    "closed_reason": None,
                    "updated_ms": now,
                }
            )
            await self.store.save([revived])
            return "ok"
        reason = "user_done" if status == "done" else "user_dismissed"
        await self.store.save([close_loop(loop, status, reason, now)])  # type: ignore[arg-type]
        return "ok"

    async def resolve_prefix(self, agent_id: str, user_id: str, prefix: str) -> list[OpenLoop]:
        return await self.store.find_prefix(agent_id, user_id, prefix)

    def _view(self, loop: OpenLoop) -> LoopView:
        due_text = None
        if loop.due_ms is not None:
            due_text = datetime.fromtimestamp(loop.due_ms / 1000, self.tz).strftime(
                "%Y-%m-%d %H:%M"
            )
        return LoopView(
            id=loop.id,
            description=loop.description,
            status=loop.status,
            due_ms=loop.due_ms,
            due_text=due_text,
            due_inferred=loop.due_inferred,
            created_ms=loop.created_ms,
            closed_ms=loop.closed_ms,
            session_id=loop.session_id,
        )


def log_change(change: AgendaChange, now_ms: int) -> None:
    """The judge's log: every decision with its reason, so a wrong merge can be reported."""
    for loop in [*change.created, *change.merged, *change.reopened, *change.noted]:
        for note in loop.notes:
            if note.at_ms == now_ms:
                _log.info("AGENDA %s: %s", loop.id[:8], note.line())
    for skipped in change.skipped:
        if skipped.reason in ("ungrounded", "empty", "not_a_promise"):
            _log.info("AGENDA skipped (%s): %r", skipped.reason, skipped.candidate.description)
    for loop in change.closed:
        _log.info("AGENDA %s closed (%s): %r", loop.id[:8], loop.closed_reason, loop.description)
