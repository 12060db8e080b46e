"""Open-loop stores: memory and JSONL (an append log where the last line per id wins).

Stores only keep loops; every judgement is made by the pure functions in `openloop_types`, so
the same conversation gives the same AGENDA on every store.
"""

from __future__ import annotations

import threading
from pathlib import Path

from pydantic import ValidationError

from jarvis.agent_layer.openloop.openloop_types import OpenLoop
from jarvis.common.jsonl import DataFileError, JsonlWriter, read_objects, report_skipped
from jarvis.common.logging import get_logger

_log = get_logger("jarvis.openloop")


class OpenLoopStore:
    """Base class for open-loop stores."""

    async def open(self) -> None:
        """Connect (stores with a server); the default has nothing to open."""

    async def aclose(self) -> None:
        """Release resources; the default has none."""

    async def save(self, loops: list[OpenLoop]) -> None:
        raise NotImplementedError

    async def get(self, loop_id: str) -> OpenLoop | None:
        raise NotImplementedError

    async def for_user(self, agent_id: str, user_id: str) -> list[OpenLoop]:
        """Every loop (any status) of one agent and user."""
        raise NotImplementedError

    async def find_prefix(self, agent_id: str, user_id: str, prefix: str) -> list[OpenLoop]:
        return [lp for lp in await self.for_user(agent_id, user_id) if lp.id.startswith(prefix)]

    async def open_with_due(self) -> list[OpenLoop]:
        """Every open loop that has a due time, of every agent and user (reminders)."""
        raise NotImplementedError


class MemoryOpenLoopStore(OpenLoopStore):
    def __init__(self) -> None:
        self._loops: dict[str, OpenLoop] = {}

    async def save(self, loops: list[OpenLoop]) -> None:
        for loop in loops:
            self._loops[loop.id] = loop

    async def get(self, loop_id: str) -> OpenLoop | None:
        return self._loops.get(loop_id)

    async def for_user(self, agent_id: str, user_id: str) -> list[OpenLoop]:
        return [
            lp for lp in self._loops.values() if lp.agent_id == agent_id and lp.user_id == user_id
        ]

    async def open_with_due(self) -> list[OpenLoop]:
        return [lp for lp in self._loops.values() if lp.status == "open" and lp.due_ms]


class JsonlOpenLoopStore(MemoryOpenLoopStore):
    """`openloops.jsonl`: read once at start (last line per id wins), then appended to through
    the shared `JsonlWriter` (a torn last line is never glued onto). A torn or corrupt line is
    skipped with one warning; a file that cannot be read at all stops start-up with
    `DataFileError` (one line naming it) rather than silently starting with no loops."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self._writer = JsonlWriter(path)
        self._lock = threading.Lock()
        self._load()

    def _load(self) -> None:
        skipped: list[int] = []
        try:
            for number, record in read_objects(self.path):
                try:
                    loop = OpenLoop.model_validate(record)
                except ValidationError:
                    skipped.append(number)
                    continue
                self._loops[loop.id] = loop
        except FileNotFoundError:
            return
        except OSError as exc:
            raise DataFileError(self.path, exc.strerror or str(exc)) from None
        report_skipped(_log, self.path, skipped)

    async def save(self, loops: list[OpenLoop]) -> None:
        if not loops:
            return
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._writer.append(loop.model_dump_json() for loop in loops)
        await super().save(loops)
