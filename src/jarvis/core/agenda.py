"""The AGENDA job: runs the judge beside each reply and applies its frame to the store."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

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


class AgendaJob:
    """A session turn job (see `SessionSetup.turn_jobs`)."""

    def __init__(self, service: OpenLoopService, judge: AgendaJudge | None) -> None:
        self.service = service
        self.judge = judge
        # Run after the reply instead of beside it (set for local one-slot model servers).
        self.after_reply = False

    async def __call__(self, session: AgentSession, user_text: str) -> None:
        info = session.info
        shown = await self.service.current(info.agent_id, info.user_id)
        frame = JudgeFrame()
        if self.judge is not None:
            now = datetime.fromtimestamp(self.service.clock.now_ms() / 1000, self.service.tz)
            try:
                frame = await self.judge.judge(user_text, now, shown)
            except Exception:  # the judge never breaks a turn; code rules still run below
                _log.exception("AGENDA judge failed")
        scope = LoopScope(agent_id=info.agent_id, user_id=info.user_id, session_id=info.id)
        change = await self.service.apply(scope, user_text, frame, shown)
        if change.changed:
            created = len(change.created) + len(change.reopened)
            session.emit(
                AgendaChanged(session_id=info.id, created=created, closed=len(change.closed))
            )
        if change.asked:
            session.emit(ask_which(info.id, change.asked, shown, session.setup.language))


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
