"""Sessions as append-only JSONL files: `<root>/<id>.jsonl`, one header line, one line per entry.

Per-turn cost stays flat as a session grows: `append` writes only the new lines (one write, one
flush) and `recent` is served from an in-memory tail of the last turns (32, or the largest `n`
asked so far). A session first touched in this process (a resume) is read from both ends only:
forward for the header and the title (first user message), backwards from the end in growing
blocks until the window's turns are found. `list_sessions` reads the same head plus the last
entry of each file, without keeping a tail. A torn or corrupt line is skipped with a warning.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

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
# Backward reads start small (list_sessions needs one line) and double, so a long line costs
# linear, not quadratic, re-joining.
_FIRST_BLOCK = 4 * 1024
_MAX_BLOCK = 1024 * 1024
# Bytes read forward at most to find the title; past that the title stays empty.
_HEAD_BUDGET = 1024 * 1024
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
    # True when the file may end in a torn line, so the next append must start a fresh one.
    needs_newline: bool = False

    def add(self, entries: list[SessionEntry]) -> None:
        self.entries.extend(entries)
        starts = _turn_starts(self.entries)
        if len(starts) > self.window:
            self.entries = self.entries[starts[-self.window] :]
            self.partial = True

    def recent(self, turns: int) -> list[SessionEntry]:
        starts = _turn_starts(self.entries)
        if turns <= 0 or not starts:
            return []
        return list(self.entries[starts[-turns] :]) if turns <= len(starts) else list(self.entries)


class JsonlSessionStore(SessionStore):
    """An id that cannot name a file in `root` names no session: reads treat it as unknown,
    `create` rejects it with `ValueError`."""

    def __init__(self, root: Path, *, fsync: bool = False) -> None:
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.fsync = fsync
        self.bytes_read = 0  # bytes consumed from files, so tests can prove reads are bounded
        self._tails: dict[str, _Tail] = {}
        self._headerless: set[Path] = set()  # warned about once, not at every listing
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    def _path(self, session_id: str) -> Path:
        if not _SESSION_ID.match(session_id):
            raise ValueError(f"invalid session id {session_id!r}")
        return self.root / f"{session_id}.jsonl"

    async def create(self, info: SessionInfo) -> None:
        path = self._path(info.id)
        if path.exists():
            if self._tail(info.id) is not None:
                return
            _set_aside(path)
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

    async def get_info(self, session_id: str) -> SessionInfo | None:
        tail = self._tail(session_id)
        return tail.info.model_copy() if tail else None

    async def list_sessions(
        self, *, agent_id: str | None = None, user_id: str | None = None
    ) -> list[SessionInfo]:
        found: list[SessionInfo] = []
        for path in self.root.glob("*.jsonl"):
            info = self._list_info(path) if _SESSION_ID.match(path.stem) else None
            if info is None:
                continue
            if (agent_id is None or info.agent_id == agent_id) and (
                user_id is None or info.user_id == user_id
            ):
                found.append(info)
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
                lines = "\n" + lines
            # A write that fails part-way leaves a torn line; the next append must not glue on.
            tail.needs_newline = True
            with self._path(session_id).open("a", encoding="utf-8") as handle:
                handle.write(lines)
                handle.flush()
                if self.fsync:
                    os.fsync(handle.fileno())
            tail.needs_newline = False
            tail.add(entries)
            _note_entries(tail.info, entries)

    async def recent(self, session_id: str, turns: int) -> list[SessionEntry]:
        tail = self._tail(session_id, window=turns)
        if tail is None:
            raise SessionNotFound(session_id)
        return tail.recent(turns)

    async def history(self, session_id: str) -> list[SessionEntry]:
        if self._tail(session_id) is None:
            raise SessionNotFound(session_id)
        path = self._path(session_id)
        data = path.read_bytes()
        self.bytes_read += len(data)
        lines = data.split(b"\n")
        return [e for e in (_parse_entry(raw, path, warn=True) for raw in lines) if e is not None]

    def _tail(self, session_id: str, window: int = _DEFAULT_WINDOW) -> _Tail | None:
        """The cached tail, (re)read from the file when absent or too short for `window`."""
        tail = self._tails.get(session_id)
        if tail is not None and (window <= tail.window or not tail.partial):
            return tail
        if not _SESSION_ID.match(session_id):
            return None
        path = self._path(session_id)
        if not path.exists():
            return None
        tail = self._read_tail(path, max(window, _DEFAULT_WINDOW))
        if tail is not None:
            self._tails[session_id] = tail
        return tail

    def _list_info(self, path: Path) -> SessionInfo | None:
        tail = self._tails.get(path.stem)
        if tail is not None:
            return tail.info.model_copy()
        with path.open("rb") as handle:
            info = self._read_head(handle, path)
            if info is not None:
                size = handle.seek(0, os.SEEK_END)
                _note_last(info, self._entries_from_end(handle, path, size, 0, warn=False)[0])
        return info

    def _read_tail(self, path: Path, window: int) -> _Tail | None:
        with path.open("rb") as handle:
            info = self._read_head(handle, path)
            if info is None:
                return None
            size = handle.seek(0, os.SEEK_END)
            entries, reached_start = self._entries_from_end(handle, path, size, window)
            torn = size > 0 and self._read_at(handle, size - 1, 1) != b"\n"
        tail = _Tail(info=info, window=window, needs_newline=torn)
        tail.add(entries)
        tail.partial = tail.partial or not reached_start
        _note_last(info, entries)
        return tail

    def _read_head(self, handle: BinaryIO, path: Path) -> SessionInfo | None:
        """The header line, then forward to the first user message (the title), within budget."""
        budget = _HEAD_BUDGET
        raw = self._readline(handle, budget)
        info = _header_info(_loads(raw), path.stem)
        if info is None:
            if path not in self._headerless:
                self._headerless.add(path)
                _log.warning("%s: no valid header line; session skipped", path)
            return None
        budget -= len(raw)
        while budget > 0 and (raw := self._readline(handle, budget)):
            budget -= len(raw)
            # Quiet: the tail or history reader reports a corrupt line; once is enough.
            entry = _validate_entry(_loads(raw))
            if entry is not None and entry.message.role == "user":
                info.title = entry.message.content[:60]
                break
        return info

    def _entries_from_end(
        self, handle: BinaryIO, path: Path, size: int, window: int, *, warn: bool = True
    ) -> tuple[list[SessionEntry], bool]:
        """Entries backwards from the end until `window` + 1 turns are seen (the oldest may be
        cut short), oldest first; and whether the start of the file was reached."""
        carry = b""  # the end of a line that starts in an earlier block
        position = size
        block = _FIRST_BLOCK
        found: list[SessionEntry] = []
        turns: set[int] = set()
        while position > 0 and len(turns) <= window:
            start = max(0, position - block)
            pieces = (self._read_at(handle, start, position - start) + carry).split(b"\n")
            position, block = start, min(block * 2, _MAX_BLOCK)
            carry = pieces.pop(0) if position > 0 else b""
            for raw in reversed(pieces):
                entry = _parse_entry(raw, path, warn=warn)
                if entry is not None:
                    found.append(entry)
                    turns.add(entry.turn)
        found.reverse()
        return found, position == 0

    def _read_at(self, handle: BinaryIO, offset: int, length: int) -> bytes:
        handle.seek(offset)
        data = handle.read(length)
        self.bytes_read += len(data)
        return data

    def _readline(self, handle: BinaryIO, limit: int) -> bytes:
        data = handle.readline(limit)
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


def _loads(raw: bytes) -> dict[str, Any] | None:
    """The JSON object on one line, or None for a blank, torn or corrupt line."""
    try:
        record = json.loads(raw)
    except ValueError:  # includes JSONDecodeError and UnicodeDecodeError
        return None
    return record if isinstance(record, dict) else None


def _validate_entry(record: dict[str, Any] | None) -> SessionEntry | None:
    if record is None or record.get("type") != "entry":
        return None
    try:
        return SessionEntry.model_validate(record)
    except ValidationError:
        return None


def _parse_entry(raw: bytes, path: Path, *, warn: bool) -> SessionEntry | None:
    """The entry on one line; a torn or corrupt line is skipped (with a warning if `warn`)."""
    if not raw.strip():
        return None
    record = _loads(raw)
    if record is not None and record.get("type") != "entry":
        return None  # the header, or a record type this reader does not use
    entry = _validate_entry(record)
    if entry is None and warn:
        _log.warning("%s: skipped a torn or corrupt line (%d bytes)", path, len(raw))
    return entry


def _header_info(header: dict[str, Any] | None, session_id: str) -> SessionInfo | None:
    if header is None or header.get("type") != "header":
        return None
    try:
        # The file name is the id the store is addressed by; the header's copy is informative.
        info = SessionInfo.model_validate({**header, "id": session_id})
    except ValidationError:
        return None
    info.updated_ms = info.created_ms
    return info


def _note_last(info: SessionInfo, entries: list[SessionEntry]) -> None:
    if entries:
        info.updated_ms = entries[-1].ts_ms
        info.turns = max(info.turns, max(entry.turn for entry in entries))


def _note_entries(info: SessionInfo, entries: list[SessionEntry]) -> None:
    """Update `updated_ms`, `turns` and (if unset) `title` as the memory store does."""
    _note_last(info, entries)
    if not info.title:
        user = next((e for e in entries if e.message.role == "user"), None)
        info.title = user.message.content[:60] if user else ""


def _set_aside(path: Path) -> None:
    """Move a file without a valid header (a crash during `create`) out of the way, keeping it."""
    aside = path.with_name(f"{path.stem}.{time.time_ns()}.broken")
    path.rename(aside)
    _log.warning("%s: no valid header; moved to %s and started afresh", path, aside.name)


def _turn_starts(entries: list[SessionEntry]) -> list[int]:
    starts: list[int] = []
    for index, entry in enumerate(entries):
        if index == 0 or entry.turn != entries[index - 1].turn:
            starts.append(index)
    return starts
