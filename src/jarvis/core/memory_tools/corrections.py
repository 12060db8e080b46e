"""A person's correction ("아니, 틀렸어") marks the previous turn's episode failed.

▲ seed limit: only tool or model errors counted as failures, so a wrong answer without an error
was never reflected on. A correction at the start of the next message is the person's grade.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jarvis.common.logging import get_logger
from jarvis.memory import MemoryService

if TYPE_CHECKING:
    from jarvis.core.session import AgentSession

_log = get_logger("jarvis.memory")

# The message must open with the correction: "틀렸다는 기사 찾아줘" is a request, not a grade.
_CORRECTION = re.compile(
    r"^\s*(?:(?:아니|아뇨|아니요)[\s,.!]*)?"
    r"(?:틀렸(?:어|어요|습니다|네|잖아|다\s*[.!]*$)|틀린\s*답|잘못\s*(?:됐|되었|했|하셨)|그게\s*아니|그거\s*아니)"
    r"|^\s*(?:no[\s,.!]*)?(?:that'?s|that is|you'?re|this is)\s+(?:wrong|incorrect|not right)"
    r"|^\s*wrong\s*(?:answer)?\s*[.!]*\s*$",
    re.IGNORECASE,
)


def is_correction(text: str) -> bool:
    return bool(_CORRECTION.search(text))


class CorrectionJob:
    """A turn job: when the new message is a correction, the turn before becomes a failure."""

    after_reply = False

    def __init__(self, memory: MemoryService) -> None:
        self._memory = memory

    async def __call__(self, session: AgentSession, text: str) -> None:
        if not is_correction(text):
            return
        info = session.info
        previous = info.turns - 1  # this turn's prompt is already stored
        if previous < 1:
            return
        marked = await self._memory.mark_turn_failed(
            session.setup.agent_id, info.user_id, info.id, previous, text[:200]
        )
        if marked:
            _log.info("session %s turn %d marked failed by a correction", info.id, previous)
