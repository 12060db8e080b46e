"""The idle tick: learning runs once a person's conversation with an agent has been quiet for
`idle_sec`, never while they wait for an answer (the model is theirs first)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from jarvis.common.logging import get_logger
from jarvis.core.procedures.learner import ProcedureLearner

if TYPE_CHECKING:
    from jarvis.core.session import AgentSession

_log = get_logger("jarvis.procedures")


class IdleLearning:
    def __init__(self, learner: ProcedureLearner, idle_sec: float) -> None:
        self.learner = learner
        self.idle_sec = idle_sec
        self._waiting: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._all: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self.ticks = 0

    def poke(self, agent: str, user: str) -> None:
        """A turn ended: (re)start the quiet period before this agent's next tick."""
        key = (agent, user)
        waiting = self._waiting.get(key)
        if waiting is not None and not waiting.done():
            waiting.cancel()  # still in its quiet period: a running tick is never cancelled
        task = asyncio.create_task(self._after_quiet(agent, user))
        self._waiting[key] = task
        self._all.add(task)
        task.add_done_callback(self._all.discard)

    async def drain(self) -> None:
        """Wait for every scheduled tick (tests, shutdown with idle_sec 0)."""
        while self._all:
            await asyncio.gather(*list(self._all), return_exceptions=True)

    async def _after_quiet(self, agent: str, user: str) -> None:
        await asyncio.sleep(self.idle_sec)
        self._waiting.pop((agent, user), None)
        async with self._lock:
            try:
                await self.learner.tick(agent, user)
            except Exception:  # learning never breaks conversation
                _log.exception("procedure learning tick failed for %s", agent)
            self.ticks += 1

    async def aclose(self) -> None:
        for task in self._waiting.values():
            task.cancel()
        self._waiting.clear()


class IdleLearningJob:
    """A turn job after the reply: starts the quiet period."""

    after_reply = True

    def __init__(self, idle: IdleLearning) -> None:
        self._idle = idle

    async def __call__(self, session: AgentSession, text: str) -> None:
        self._idle.poke(session.setup.agent_id, session.info.user_id)
