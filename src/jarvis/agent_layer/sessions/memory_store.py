"""Sessions kept in process memory (tests, benchmarks, throwaway runs)."""

from __future__ import annotations

from jarvis.agent_layer.sessions.base import (
    SessionEntry,
    SessionInfo,
    SessionNotFound,
    SessionStore,
    clean_title,
)


class MemorySessionStore(SessionStore):
    def __init__(self) -> None:
        self._info: dict[str, SessionInfo] = {}
        self._entries: dict[str, list[SessionEntry]] = {}
        # Index of the first entry of each turn, so `recent` slices without scanning.
        self._turn_starts: dict[str, list[tuple[int, int]]] = {}

    async def create(self, info: SessionInfo) -> None:
        if info.id not in self._info:
            self._info[info.id] = info.model_copy()
            self._entries[info.id] = []
            self._turn_starts[info.id] = []

    async def get_info(self, session_id: str) -> SessionInfo | None:
        info = self._info.get(session_id)
        return info.model_copy() if info else None

    async def list_sessions(
        self, *, agent_id: str | None = None, user_id: str | None = None
    ) -> list[SessionInfo]:
        found = [
            info.model_copy()
            for info in self._info.values()
            if (agent_id is None or info.agent_id == agent_id)
            and (user_id is None or info.user_id == user_id)
        ]
        return sorted(found, key=lambda info: info.updated_ms, reverse=True)

    async def append(self, session_id: str, entries: list[SessionEntry]) -> None:
        if session_id not in self._info:
            raise SessionNotFound(session_id)
        rows = self._entries[session_id]
        starts = self._turn_starts[session_id]
        for entry in entries:
            if not starts or starts[-1][0] != entry.turn:
                starts.append((entry.turn, len(rows)))
            rows.append(entry)
        info = self._info[session_id]
        if entries:
            info.updated_ms = entries[-1].ts_ms
            info.turns = max(info.turns, entries[-1].turn)
            if not info.title:
                info.title = _title_of(entries)

    async def recent(self, session_id: str, turns: int) -> list[SessionEntry]:
        if session_id not in self._info:
            raise SessionNotFound(session_id)
        starts = self._turn_starts[session_id]
        if turns <= 0 or not starts:
            return []
        first = starts[-turns][1] if turns <= len(starts) else 0
        return list(self._entries[session_id][first:])

    async def history(self, session_id: str, limit: int | None = None) -> list[SessionEntry]:
        if session_id not in self._info:
            raise SessionNotFound(session_id)
        entries = self._entries[session_id]
        if limit is None:
            return list(entries)
        return list(entries[-limit:]) if limit > 0 else []

    async def rename(self, session_id: str, title: str) -> bool:
        info = self._info.get(session_id)
        if info is None:
            return False
        info.title = clean_title(title)
        return True

    async def delete(self, session_id: str) -> bool:
        if self._info.pop(session_id, None) is None:
            return False
        self._entries.pop(session_id, None)
        self._turn_starts.pop(session_id, None)
        return True


def _title_of(entries: list[SessionEntry]) -> str:
    for entry in entries:
        if entry.message.role == "user":
            return entry.message.content[:60]
    return ""
