"""Sessions as append-only JSONL files: `<root>/<id>.jsonl`, one header line, one line per entry.

Per-turn cost stays flat as a session grows: `append` writes only the new lines (one write, one
flush, through the shared `JsonlWriter`) and `recent` is served from an in-memory tail of the
last turns (32 to 64, or up to twice the largest `n` asked so far), found from its end. A
session first touched in this process (a resume) is read from both ends only
(`SessionFileReader`), in a worker thread so the event loop keeps serving while a large file is
read. `list_sessions` reads the head and the last entry of
each file, and remembers that summary until the file changes (size or mtime), so a listing
re-reads only what changed. A torn, corrupt or over-long (> 8 MB) line is skipped with a warning.

Damage is reported, not fatal: an unreadable file is logged once and left out; a damaged header
does not hide intact turns (see `jsonl_format`). A header that lost its owner is given to
"local" only when every other session in the folder belongs to "local" (a single-user
install); otherwise to nobody (`UNKNOWN_OWNER`), so with API keys in use a damaged header can
never hand a session to another person. `jarvis chat --session <id>` still resumes it.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from jarvis.agent_layer.sessions.base import (
    SessionEntry,
    SessionInfo,
    SessionNotFound,
    SessionStore,
    clean_title,
)
from jarvis.agent_layer.sessions.jsonl_format import (
    SESSION_ID,
    entry_line,
    header_line,
    note_entries,
)
from jarvis.agent_layer.sessions.jsonl_reader import SessionFileReader, TailRead
from jarvis.agent_layer.sessions.title_file import TITLES_FILE, TitleFile
from jarvis.common.jsonl import JsonlWriter, create_with_line
from jarvis.common.logging import get_logger

_log = get_logger("jarvis.sessions")

# Turns kept in memory per open session; `recent` asks for far fewer (3 by default).
_DEFAULT_WINDOW = 32
# A history view reads at most about this much of the file's end, however many entries fit.
HISTORY_BYTE_BUDGET = 32 * 1024 * 1024
LOCAL_OWNER = "local"
UNKNOWN_OWNER = ""  # matches no API key name (they are non-empty) and not the local user


@dataclass
class _Tail:
    """What this process holds of one session: its info and the last turns' entries."""

    info: SessionInfo
    writer: JsonlWriter
    entries: list[SessionEntry] = field(default_factory=list)
    window: int = _DEFAULT_WINDOW
    # True when the tail may be missing older turns (the file has more than we read).
    partial: bool = False
    turns: int = 0  # distinct turns in `entries`

    def add(self, entries: list[SessionEntry]) -> None:
        for entry in entries:
            if not self.entries or self.entries[-1].turn != entry.turn:
                self.turns += 1
            self.entries.append(entry)
        # Cut back to `window` turns once twice as many are held: an append costs its own
        # entries, not a scan of the tail each turn.
        if self.turns > 2 * self.window:
            self.entries = self.entries[_turn_starts(self.entries)[-self.window] :]
            self.turns = self.window
            self.partial = True

    def recent(self, turns: int) -> list[SessionEntry]:
        """The last `turns` turns' entries (all held when fewer), found from the end."""
        entries = self.entries
        if turns <= 0 or not entries:
            return []
        count = 1
        for index in range(len(entries) - 1, 0, -1):
            if entries[index - 1].turn != entries[index].turn:
                if count == turns:
                    return entries[index:]
                count += 1
        return list(entries)


_StatKey = tuple[int, int]


class JsonlSessionStore(SessionStore):
    """An id that cannot name a file in `root` names no session: reads treat it as unknown,
    `create` rejects it with `ValueError`. File errors are `OSError`s naming the file."""

    def __init__(self, root: Path, *, fsync: bool = False) -> None:
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.fsync = fsync
        self.reader = SessionFileReader()
        self._tails: dict[str, _Tail] = {}
        self._summaries: dict[str, tuple[_StatKey, SessionInfo | None, bool]] = {}
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        # Titles people chose live beside the append-only files (a header is never rewritten).
        self.titles = TitleFile(root / TITLES_FILE, fsync=fsync)

    @property
    def bytes_read(self) -> int:
        """Bytes consumed from files, so tests can prove reads are bounded."""
        return self.reader.bytes_read

    def _path(self, session_id: str) -> Path:
        if not SESSION_ID.match(session_id):
            raise ValueError(f"invalid session id {session_id!r}")
        return self.root / f"{session_id}.jsonl"

    async def create(self, info: SessionInfo) -> None:
        path = self._path(info.id)
        async with self._locks[info.id]:
            if path.exists():
                if await self._load(info.id) is not None:
                    return
                _set_aside(path)
            try:
                await asyncio.to_thread(create_with_line, path, header_line(info), fsync=self.fsync)
            except FileExistsError:
                return  # made meanwhile by another process: the first one stays
            writer = JsonlWriter(path, fsync=self.fsync)
            self._tails[info.id] = _Tail(info=info.model_copy(), writer=writer)

    async def get_info(self, session_id: str) -> SessionInfo | None:
        if not SESSION_ID.match(session_id):
            return None
        async with self._locks[session_id]:
            tail = await self._load(session_id)
        return self._titled(tail.info.model_copy()) if tail else None

    async def list_sessions(
        self, *, agent_id: str | None = None, user_id: str | None = None
    ) -> list[SessionInfo]:
        live = {sid: tail.info.model_copy() for sid, tail in self._tails.items()}
        found = await asyncio.to_thread(self._list_infos, live)
        return sorted(
            (
                self._titled(info)
                for info in found
                if (agent_id is None or info.agent_id == agent_id)
                and (user_id is None or info.user_id == user_id)
            ),
            key=lambda info: info.updated_ms,
            reverse=True,
        )

    async def append(self, session_id: str, entries: list[SessionEntry]) -> None:
        if not SESSION_ID.match(session_id):
            raise SessionNotFound(session_id)
        async with self._locks[session_id]:
            tail = await self._load(session_id)
            if tail is None:
                raise SessionNotFound(session_id)
            if not entries:
                return
            # ponytail: one turn's lines are written on the loop; they are small and this keeps
            # the per-turn overhead flat. Large reads are what go to a thread.
            tail.writer.append(entry_line(entry) for entry in entries)
            tail.add(entries)
            note_entries(tail.info, entries)

    async def recent(self, session_id: str, turns: int) -> list[SessionEntry]:
        if not SESSION_ID.match(session_id):
            raise SessionNotFound(session_id)
        async with self._locks[session_id]:
            tail = await self._load(session_id, window=turns)
        if tail is None:
            raise SessionNotFound(session_id)
        return tail.recent(turns)

    async def history(self, session_id: str, limit: int | None = None) -> list[SessionEntry]:
        if not SESSION_ID.match(session_id):
            raise SessionNotFound(session_id)
        async with self._locks[session_id]:
            if await self._load(session_id) is None:
                raise SessionNotFound(session_id)
            path = self._path(session_id)
            # Appends only add after this point, so the range read below is stable without
            # holding the lock (a turn is not held up by a history view).
            end = path.stat().st_size
        if limit is not None and limit <= 0:
            return []
        budget = None if limit is None else HISTORY_BYTE_BUDGET
        return await asyncio.to_thread(self.reader.last_entries, path, end, limit, budget)

    async def rename(self, session_id: str, title: str) -> bool:
        if not SESSION_ID.match(session_id):
            return False
        async with self._locks[session_id]:
            if await self._load(session_id) is None:
                return False
            await asyncio.to_thread(self.titles.set, session_id, clean_title(title))
        return True

    async def delete(self, session_id: str) -> bool:
        if not SESSION_ID.match(session_id):
            return False
        async with self._locks[session_id]:
            if await self._load(session_id) is None:
                return False
            self._tails.pop(session_id, None)
            self._summaries.pop(session_id, None)
            self._path(session_id).unlink(missing_ok=True)
            await asyncio.to_thread(self.titles.set, session_id, None)
        return True

    def _titled(self, info: SessionInfo) -> SessionInfo:
        """The info with the title a person chose, when they chose one."""
        chosen = self.titles.get(info.id)
        if chosen:
            info.title = chosen
        return info

    async def _load(self, session_id: str, window: int = _DEFAULT_WINDOW) -> _Tail | None:
        """The cached tail, (re)read from the file when absent or too short for `window`.
        Callers hold the session's lock."""
        tail = self._tails.get(session_id)
        if tail is not None and (window <= tail.window or not tail.partial):
            return tail
        path = self._path(session_id)
        read = await asyncio.to_thread(self._read_tail, path, max(window, _DEFAULT_WINDOW))
        if read is None or read.head.info is None:
            return None
        writer = tail.writer if tail is not None else JsonlWriter(path, fsync=self.fsync)
        tail = _Tail(info=read.head.info, writer=writer, window=max(window, _DEFAULT_WINDOW))
        tail.add(read.entries)
        tail.partial = tail.partial or not read.reached_start
        self._tails[session_id] = tail
        return tail

    def _read_tail(self, path: Path, window: int) -> TailRead | None:
        """In a worker thread: the file's head and last turns, or None (absent, unreadable,
        no session)."""
        try:
            read = self.reader.tail(path, window)
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._report_unreadable(path, exc)
            return None
        if read is not None and read.head.info is not None and not read.head.owner_known:
            read.head.info.user_id = self._orphan_owner(path)
        return read

    def _list_infos(self, live: dict[str, SessionInfo]) -> list[SessionInfo]:
        """In a worker thread: every session's info, from memory or the cached summary."""
        found: list[SessionInfo] = []
        orphans: list[SessionInfo] = []
        for path in self.root.glob("*.jsonl"):
            if not SESSION_ID.match(path.stem):
                continue
            if path.stem in live:
                found.append(live[path.stem])
                continue
            info, owner_known = self._summary(path)
            if info is not None:
                found.append(info)
                if not owner_known:
                    orphans.append(info)
        if orphans:
            owner = self._orphan_owner(None, found)
            for info in orphans:
                info.user_id = owner
        return found

    def _summary(self, path: Path) -> tuple[SessionInfo | None, bool]:
        """A copy of the file's summary, read again only when the file changed."""
        try:
            stat = path.stat()
            key = (stat.st_size, stat.st_mtime_ns)
            cached = self._summaries.get(path.stem)
            if cached is None or cached[0] != key:
                head_info = self.reader.summary(path)
                owner_known = head_info is None or head_info.user_id != UNKNOWN_OWNER
                cached = (key, head_info, owner_known)
                self._summaries[path.stem] = cached
        except FileNotFoundError:
            return None, True
        except OSError as exc:
            self._report_unreadable(path, exc)
            return None, True
        info = cached[1]
        return (info.model_copy() if info else None), cached[2]

    def _orphan_owner(self, path: Path | None, others: list[SessionInfo] | None = None) -> str:
        """Whom a session whose header lost its owner belongs to: the local user when every
        other session here is the local user's, else nobody."""
        if others is None:
            others = [
                info
                for other in self.root.glob("*.jsonl")
                if other != path and SESSION_ID.match(other.stem)
                for info, known in [self._summary(other)]
                if info is not None and known
            ]
        owners = {info.user_id for info in others if info.user_id != UNKNOWN_OWNER}
        return LOCAL_OWNER if owners <= {LOCAL_OWNER} else UNKNOWN_OWNER

    def _report_unreadable(self, path: Path, exc: OSError) -> None:
        self.reader.warn_once(
            path,
            "unreadable",
            "%s: cannot read this session file (%s); it is left out until it can be read. "
            "Check its owner and permissions (chmod u+rw).",
            exc.strerror or exc,
        )


def _set_aside(path: Path) -> None:
    """Move a file that holds no session (a crash during `create`) out of the way, keeping it."""
    aside = path.with_name(f"{path.stem}.{time.time_ns()}.broken")
    path.rename(aside)
    _log.warning("%s: no valid header; moved to %s and started afresh", path, aside.name)


def _turn_starts(entries: list[SessionEntry]) -> list[int]:
    starts: list[int] = []
    for index, entry in enumerate(entries):
        if index == 0 or entry.turn != entries[index - 1].turn:
            starts.append(index)
    return starts
