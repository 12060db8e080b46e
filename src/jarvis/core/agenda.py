"""The AGENDA job: runs the judge beside each reply and applies its frame to the store."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from jarvis.agent_layer.openloop.cues import may_hold_loop
from jarvis.agent_layer.openloop.judge import AgendaJudge
from jarvis.agent_layer.openloop.openloop_types import JudgeFrame, LoopScope, OpenLoop
from jarvis.agent_layer.openloop.service import OpenLoopService
from jarvis.common.i18n import Language, t
from jarvis.common.logging import get_logger

if TYPE_CHECKING:
    from jarvis.core.session import AgentSession

_log = get_logger("jarvis.openloop")


class AgendaChanged(BaseModel):
    type: Literal["agenda_changed"] = "agenda_changed"
    session_id: str
    created: int = 0
    closed: int = 0


class AgendaQuestion(BaseModel):
    """The AGENDA asks the person something: which of several loops a dismissal meant."""

    type: Literal["agenda_question"] = "agenda_question"
    session_id: str
    text: str
    loop_ids: list[str]


# Words whose judge call gave way every time, kept to judge after the next turn (a bound: the
# oldest beyond it is dropped with an error in the log, never silently).
MAX_WAITING = 8


class AgendaJob:
    """A session turn job (see `SessionSetup.turn_jobs`)."""

    def __init__(self, service: OpenLoopService, judge: AgendaJudge | None) -> None:
        self.service = service
        self.judge = judge
        # Run after the reply instead of beside it (set for local one-slot model servers).
        self.after_reply = False
        # Ask the judge on every turn; False: only when it could find something (`_worth_asking`).
        self.every_turn = False
        # (words, when they were said) not judged yet: the judge gave way to the person each time.
        self.waiting: list[tuple[str, datetime]] = []

    async def __call__(self, session: AgentSession, user_text: str) -> None:
        now = datetime.fromtimestamp(self.service.clock.now_ms() / 1000, self.service.tz)
        earlier, self.waiting = self.waiting, []
        for text, said in [*earlier, (user_text, now)]:
            await self._judge(session, text, said)

    async def _judge(self, session: AgentSession, user_text: str, now: datetime) -> None:
        info = session.info
        shown = await self.service.current(info.agent_id, info.user_id)
        if not self._worth_asking(user_text, shown):
            return  # nothing to close and no cue of anything to do later: nothing to find
        frame: JudgeFrame | None = JudgeFrame()
        if self.judge is not None:
            try:
                frame = await self.judge.judge(user_text, now, shown)
            except Exception:  # the judge never breaks a turn; code rules still run below
                _log.exception("AGENDA judge failed")
                frame = JudgeFrame()
        if frame is None:  # it gave way to the person every time: judged after the next turn
            self._wait(user_text, now)
            return
        scope = LoopScope(agent_id=info.agent_id, user_id=info.user_id, session_id=info.id)
        change = await self.service.apply(scope, user_text, frame, shown, said=now)
        if change.changed:
            created = len(change.created) + len(change.reopened)
            session.emit(
                AgendaChanged(session_id=info.id, created=created, closed=len(change.closed))
            )
        if change.asked:
            session.emit(ask_which(info.id, change.asked, shown, session.setup.language))

    def _worth_asking(self, user_text: str, shown: list[OpenLoop]) -> bool:
        """The judge (a model call) runs when open loops are shown (any words may close one) or
        the words may hold a new one (`may_hold_loop`); with nothing shown and an empty frame the
        code rules change nothing either."""
        return self.every_turn or bool(shown) or may_hold_loop(user_text)

    def _wait(self, user_text: str, now: datetime) -> None:
        self.waiting.append((user_text, now))
        _log.warning("AGENDA: not judged yet, kept for after the next turn: %r", user_text[:80])
        if len(self.waiting) > MAX_WAITING:
            dropped, _ = self.waiting.pop(0)
            _log.error("AGENDA: %d words wait already; dropped unjudged: %r", MAX_WAITING, dropped)


def ask_which(
    session_id: str, loop_ids: list[str], shown: list[OpenLoop], lang: Language
) -> AgendaQuestion:
    """ "Which promise is cancelled? 1) … · 2) …": the options numbered as the answer reads them."""
    by_id = {loop.id: loop for loop in shown}
    options = " · ".join(
        f"{n}) {by_id[i].description}" for n, i in enumerate(loop_ids, 1) if i in by_id
    )
    return AgendaQuestion(
        session_id=session_id,
        text=t("agenda.ask_which", lang, options=options),
        loop_ids=loop_ids,
    )
