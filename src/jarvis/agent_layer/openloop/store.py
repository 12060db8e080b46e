"""Open-loop stores: memory and JSONL (an append log where the last line per id wins).

Stores only keep loops; every judgement is made by the pure functions in `openloop_types`, so
the same conversation gives the same AGENDA on every store.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from pydantic import ValidationError

from jarvis.agent_layer.openloop.openloop_types import OpenLoop
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


class JsonlOpenLoopStore(MemoryOpenLoopStore):
    """`openloops.jsonl`: read once at start (last line per id wins), then appended to."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self._lock = threading.Lock()
        self._needs_newline = False
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        self._needs_newline = bool(data) and not data.endswith(b"\n")
        for number, raw in enumerate(data.split(b"\n"), 1):
            if not raw.strip():
                continue
            try:
                loop = OpenLoop.model_validate(json.loads(raw))
            except (ValueError, ValidationError):
                _log.warning("%s:%d: skipped a torn or corrupt line", self.path, number)
                continue
            self._loops[loop.id] = loop

    async def save(self, loops: list[OpenLoop]) -> None:
        if not loops:
            return
        lines = "".join(loop.model_dump_json() + "\n" for loop in loops)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                # A crash may have torn the last line; never glue onto it.
                handle.write(("\n" if self._needs_newline else "") + lines)
            self._needs_newline = False
        await super().save(loops)
