"""The per-turn user-model job: the person's words → proposals → guard and rules → the file.

No model call: the pattern extractor proposes (`extract.py`), the guard and the update rules
decide (`facts.py`). It runs beside the reply and never delays or breaks it.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from jarvis.common.clock import new_id
from jarvis.common.logging import get_logger
from jarvis.core.user_model.extract import propose
from jarvis.core.user_model.facts import Decision, Fact, apply_proposals
from jarvis.core.user_model.store import UserModelFileError, UserModelStore

if TYPE_CHECKING:
    from jarvis.core.session import AgentSession

_log = get_logger("jarvis.user_model")


class UserModelJob:
    """A session turn job (see `SessionSetup.turn_jobs`)."""

    def __init__(self, store: UserModelStore, *, infer: bool = False) -> None:
        self.store = store
        self.infer = infer  # inferred facts (tentative until seen in two sessions); off by default

    async def __call__(self, session: AgentSession, user_text: str) -> None:
        said = html.unescape(user_text)  # validation escaped it for display; facts keep words
        proposals = propose(said, inferring=self.infer)
        if not proposals:
            return
        now = session.setup.clock.now_ms()

        def change(facts: list[Fact]) -> tuple[list[Fact], list[Decision]]:
            return apply_proposals(
                facts,
                proposals,
                said,
                now,
                new_id()[:12],
                session_id=session.info.id,
                infer=self.infer,
            )

        try:
            decisions = await self.store.update(session.info.user_id, change)
        except (OSError, UserModelFileError) as exc:
            _log.warning("user model not updated: %s", exc)
            return
        for decision in decisions:
            _log.info(
                "user model %s %s=%r: %s",
                "took" if decision.accepted else "refused",
                decision.proposal.field,
                decision.proposal.value,
                decision.reason,
            )
