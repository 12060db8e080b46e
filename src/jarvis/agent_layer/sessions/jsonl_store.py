"""Sessions as append-only JSONL files: `<root>/<id>.jsonl`, one header line, one line per entry.

Per-turn cost stays flat as a session grows: appends write only the new lines, and `recent` is
served from an in-memory tail. A session first touched in this process (a resume) is read from
both ends only: the first block (header, title) and backwards from the end until the recent
window's turns are found. A torn or corrupt line is skipped with a warning.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from jarvis.agent_layer.sessions.base import (
    SessionEntry,
    SessionInfo,
    SessionNotFound,
    SessionStore,
)
from jarvis.common.logging import get_logger

_log = get_logger("jarvis.sessions")

FORMAT = 1
_SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_BLOCK = 64 * 1024
# Turns kept in memory per open session; `recent` asks for far fewer (3 by default).
_DEFAULT_WINDOW = 32


@dataclass
class _Tail:
    """What this process holds of one session: its info and the last turns' entries."""

    info: SessionInfo
    entries: list[SessionEntry] = field(default_factory=list)
    window: int = _DEFAULT_WINDOW
    # True when the tail may be missing older turns (the file has more than we read).
    partial: bool = False
    needs_newline: bool = False

    def add(self, entries: list[SessionEntry]) -> None:
        self.entries.extend(entries)
        turns = _turn_starts(self.entries)
        if len(turns) > self.window:
            self.entries = self.entries[turns[-self.window] :]
            self.partial = True

    def recent(self, turns: int) -> list[SessionEntry]:
        starts = _turn_starts(self.entries)
        if turns <= 0 or not starts:
            return []
        return list(self.entries[starts[-turns] :]) if turns <= len(starts) else list(self.entries)


class JsonlSessionStore(SessionStore):
    def __init__(self, root: Path, *, fsync: bool = False) -> None:
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.fsync = fsync
        self.bytes_read = 0  # for tests and benchmarks: how much resuming really reads
        self._tails: dict[str, _Tail] = {}
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    def _path(self, session_id: str) -> Path:
        if not _SESSION_ID.match(session_id):
            raise ValueError(f"invalid session id {session_id!r}")
        return self.root / f"{session_id}.jsonl"

    async def create(self, info: SessionInfo) -> None:
        path = self._path(info.id)
        if path.exists():
            return
        header = {
            "type": "header",
            "format": FORMAT,
            "id": info.id,
            "agent_id": info.agent_id,
            "user_id": info.user_id,
            "created_ms": info.created_ms,
        }
        with path.open("x", encoding="utf-8") as handle:
            handle.write(json.dumps(header, ensure_ascii=False) + "\n")
        self._tails[info.id] = _Tail(info=info.model_copy())

    def _tail(self, session_id: str, window: int = _DEFAULT_WINDOW) -> _Tail | None:
        tail = self._tails.get(session_id)
        if tail is not None and (window <= tail.window or not tail.partial):
            return tail
        path = self._path(session_id)
        if not path.exists():
            return None
        tail = self._read_tail(path, max(window, _DEFAULT_WINDOW))
        if tail is not None:
            self._tails[session_id] = tail
        return tail

    async def get_info(self, session_id: str) -> SessionInfo | None:
        tail = self._tail(session_id)
        return tail.info.model_copy() if tail else None

    async def list_sessions(
        self, *, agent_id: str | None = None, user_id: str | None = None
    ) -> list[SessionInfo]:
        found: list[SessionInfo] = []
        for path in self.root.glob("*.jsonl"):
            tail = self._tail(path.stem) if _SESSION_ID.match(path.stem) else None
            if tail is None:
                continue
            info = tail.info
            if (agent_id is None or info.agent_id == agent_id) and (
                user_id is None or info.user_id == user_id
            ):
                found.append(info.model_copy())
        return sorted(found, key=lambda info: info.updated_ms, reverse=True)

    async def append(self, session_id: str, entries: list[SessionEntry]) -> None:
        async with self._locks[session_id]:
            tail = self._tail(session_id)
            if tail is None:
                raise SessionNotFound(session_id)
            if not entries:
                return
            lines = "".join(_entry_line(entry) for entry in entries)
            if tail.needs_newline:
                # The last line was torn by a crash; never glue new lines onto it.
                lines = "\n" + lines
            with self._path(session_id).open("a", encoding="utf-8") as handle:
                handle.write(lines)
                handle.flush()
                if self.fsync:
                    os.fsync(handle.fileno())
            tail.needs_newline = False
            tail.add(entries)
            _update_info(tail.info, entries)

    async def recent(self, session_id: str, turns: int) -> list[SessionEntry]:
        tail = self._tail(session_id, window=turns)
        if tail is None:
            raise SessionNotFound(session_id)
        return tail.recent(turns)

    async def history(self, session_id: str) -> list[SessionEntry]:
        path = self._path(session_id)
        if not path.exists():
            raise SessionNotFound(session_id)
        data = path.read_bytes()
        self.bytes_read += len(data)
        entries: list[SessionEntry] = []
        for number, raw in enumerate(data.split(b"\n"), 1):
            record = _parse(raw, path, number)
            if record is not None and record.get("type") == "entry":
                entry = _to_entry(record, path, number)
                if entry is not None:
                    entries.append(entry)
        return entries

    def _read_tail(self, path: Path, window: int) -> _Tail | None:
        with path.open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            head = self._read_at(handle, 0, min(size, _BLOCK))
            header = _parse(head.split(b"\n", 1)[0], path, 1)
            if header is None or header.get("type") != "header":
                _log.warning("%s: no header line; skipped", path)
                return None
            info = SessionInfo(
                id=str(header["id"]),
                agent_id=str(header.get("agent_id", "main")),
                user_id=str(header.get("user_id", "local")),
                created_ms=int(header.get("created_ms", 0)),
            )
            info.updated_ms = info.created_ms
            info.title = _first_user_text(head, path)
            lines, reached_start = self._lines_from_end(handle, size, window)
            needs_newline = size > 0 and self._read_at(handle, size - 1, 1) != b"\n"
        entries = [e for e in (_to_entry(r, path, 0) for r in lines) if e is not None]
        tail = _Tail(info=info, window=window, needs_newline=needs_newline)
        tail.add(entries)
        tail.partial = tail.partial or not reached_start
        if entries:
            info.turns = entries[-1].turn
            info.updated_ms = entries[-1].ts_ms
        return tail

    def _lines_from_end(
        self, handle: Any, size: int, window: int
    ) -> tuple[list[dict[str, Any]], bool]:
        """Parse whole lines backwards from the end until `window` + 1 turns are seen."""
        buffer = b""
        position = size
        records: list[dict[str, Any]] = []
        turns: set[int] = set()
        while position > 0 and len(turns) <= window:
            start = max(0, position - _BLOCK)
            buffer = self._read_at(handle, start, position - start) + buffer
            position = start
            pieces = buffer.split(b"\n")
            # The first piece may be a partial line unless we reached the start of the file.
            buffer = pieces.pop(0) if position > 0 else b""
            for raw in reversed(pieces):
                record = _parse(raw, handle.name, 0)
                if record is not None and record.get("type") == "entry":
                    records.append(record)
                    turns.add(int(record.get("turn", 0)))
        records.reverse()
        return records, position == 0

    def _read_at(self, handle: Any, offset: int, length: int) -> bytes:
        handle.seek(offset)
        data: bytes = handle.read(length)
        self.bytes_read += len(data)
        return data


def _entry_line(entry: SessionEntry) -> str:
    record = {
        "type": "entry",
        "turn": entry.turn,
        "ts_ms": entry.ts_ms,
        "message": entry.message.model_dump(mode="json"),
    }
    return json.dumps(record, ensure_ascii=False) + "\n"


def _parse(raw: bytes, path: Any, number: int) -> dict[str, Any] | None:
    if not raw.strip():
        return None
    try:
        record = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        _log.warning("%s:%s: skipped a torn or corrupt line", path, number or "?")
        return None
    return record if isinstance(record, dict) else None


def _to_entry(record: dict[str, Any], path: Any, number: int) -> SessionEntry | None:
    try:
        return SessionEntry.model_validate(
            {"turn": record["turn"], "ts_ms": record["ts_ms"], "message": record["message"]}
        )
    except (KeyError, ValidationError):
        _log.warning("%s:%s: skipped an entry that does not validate", path, number or "?")
        return None


def _first_user_text(head: bytes, path: Path) -> str:
    for raw in head.split(b"\n")[1:-1]:
        record = _parse(raw, path, 0)
        if record and record.get("type") == "entry":
            message = record.get("message") or {}
            if message.get("role") == "user":
                return str(message.get("content", ""))[:60]
    return ""


def _turn_starts(entries: list[SessionEntry]) -> list[int]:
    starts: list[int] = []
    for index, entry in enumerate(entries):
        if index == 0 or entry.turn != entries[index - 1].turn:
            starts.append(index)
    return starts


def _update_info(info: SessionInfo, entries: list[SessionEntry]) -> None:
    info.updated_ms = entries[-1].ts_ms
    info.turns = max(info.turns, entries[-1].turn)
    if not info.title:
        for entry in entries:
            if entry.message.role == "user":
                info.title = entry.message.content[:60]
                break
