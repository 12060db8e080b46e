"""The per-turn semantic memory writer: the person's words → statements → long-term memory.

Runs beside the reply like the user model's job (no model call, never delays or breaks a turn).
The rules are `semantic.py`'s; this module reads what is kept and writes the plan.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from jarvis.common.logging import get_logger
from jarvis.core.memory_tools.semantic import Kept, plan, statements
from jarvis.memory import MemoryScope, MemoryService
from jarvis.memory.recall_rules import normalized

if TYPE_CHECKING:
    from jarvis.core.session import AgentSession

_log = get_logger("jarvis.memory")


class SemanticMemoryJob:
    """A session turn job (see `SessionSetup.turn_jobs`)."""

    after_reply = False

    def __init__(self, memory: MemoryService) -> None:
        self._memory = memory

    async def __call__(self, session: AgentSession, user_text: str) -> None:
        said = statements(html.unescape(user_text))  # validation escaped it for display
        if not said:
            return
        info = session.info
        scope = MemoryScope(session.setup.memory_owner, info.user_id, info.id, info.turns)
        try:
            await write_statements(self._memory, scope, said, session.setup.clock.now_ms())
        except Exception:  # memory never breaks a turn
            _log.exception("semantic memory not written")


async def write_statements(
    memory: MemoryService, scope: MemoryScope, said: list[str], now_ms: int
) -> list[str]:
    """Add the statements memory does not hold yet, replacing the ones they correct; the texts
    written."""
    kept_items = await memory.store.of_kind(scope.agent_id, scope.user_id, "semantic")
    kept = [Kept(item.id, item.text) for item in reversed(kept_items)]  # newest first
    change = plan(kept, said)
    for old in change.replace:
        await memory.forget(scope.agent_id, scope.user_id, old.id)
        await memory.supersede_episodes(scope.agent_id, scope.user_id, normalized(old.text))
        _log.info("semantic memory %s replaced (corrected)", old.id[:8])
    for text in change.add:
        item = await memory.remember(scope, "semantic", text, now_ms)
        _log.info("semantic memory %s kept", item.id[:8])
    return change.add
