"""Bounded reads of one session file, run in a worker thread by `JsonlSessionStore`.

Forward from the start only for the header and the title (first user message, within
`HEAD_BUDGET`); backwards from the end for everything else, stopping as soon as the window is
found. No line longer than `MAX_LINE_BYTES` is ever held: it is skipped with a warning.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path

from jarvis.agent_layer.sessions.base import SessionEntry, SessionInfo
from jarvis.agent_layer.sessions.jsonl_format import (
    TITLE_LENGTH,
    entry_of,
    header_info,
    is_other_record,
    note_last,
    surviving_fields,
)
from jarvis.common.jsonl import ReadableFile, lines_backward, lines_forward, loads_object
from jarvis.common.logging import get_logger

_log = get_logger("jarvis.sessions")

# Bytes read forward at most to find the title; past that the title stays empty.
HEAD_BUDGET = 1024 * 1024


@dataclass
class Head:
    """What the start of a file says. `info` is None when the file holds no session (no valid
    header and no entry); `owner_known` is False when a damaged header lost the owner."""

    info: SessionInfo | None
    body_start: int
    damaged: bool = False
    owner_known: bool = True


@dataclass
class TailRead:
    head: Head
    entries: list[SessionEntry] = field(default_factory=list)
    reached_start: bool = True
    torn: bool = False


class SessionFileReader:
    """Reads session files and counts the bytes (tests prove reads are bounded with it)."""

    def __init__(self) -> None:
        self.bytes_read = 0
        self._warned: set[tuple[Path, str]] = set()

    def warn_once(self, path: Path, what: str, message: str, *args: object) -> None:
        """Each problem of each file is logged once per process, not at every listing."""
        if (path, what) not in self._warned:
            self._warned.add((path, what))
            _log.warning(message, path, *args)

    def tail(self, path: Path, turns: int) -> TailRead | None:
        """The head and the entries of the last `turns` turns (the oldest may be cut short)."""
        with path.open("rb") as raw:
            handle = _Counting(raw, self)
            head = self.head(handle, path)
            size = raw.seek(0, os.SEEK_END)
            entries, reached = self.entries_before(handle, path, size, head.body_start, turns)
            torn = size > 0 and self._read_at(handle, size - 1, 1) != b"\n"
        return self._exists(TailRead(head, entries, reached, torn), path)

    def summary(self, path: Path) -> SessionInfo | None:
        """Info for the session list: the head and the last entry only."""
        with path.open("rb") as raw:
            handle = _Counting(raw, self)
            head = self.head(handle, path)
            size = raw.seek(0, os.SEEK_END)
            last, _ = self.entries_before(handle, path, size, head.body_start, 0, warn=head.damaged)
        read = self._exists(TailRead(head, last), path)
        return read.head.info if read else None

    def last_entries(
        self, path: Path, end: int, limit: int | None, budget: int | None
    ) -> list[SessionEntry]:
        """Up to `limit` entries (all when None) before byte `end`, oldest first, keeping at
        most about `budget` bytes of entries (a history view never loads a whole large file)."""
        found: list[SessionEntry] = []
        skipped = 0
        used = 0
        with path.open("rb") as raw:
            handle = _Counting(raw, self)
            body_start = self.head(handle, path).body_start
            for line in lines_backward(handle, end, stop=body_start):
                entry = _entry_line(line)
                if entry is None:
                    skipped += _is_bad(line)
                    continue
                found.append(entry)
                used += len(line or b"")
                if (limit is not None and len(found) >= limit) or (
                    budget is not None and used >= budget
                ):
                    break
        self._report_skipped(path, skipped)
        found.reverse()
        return found

    def head(self, handle: ReadableFile, path: Path) -> Head:
        """The header line, then forward to the first user message (the title), within budget."""
        lines = lines_forward(handle, budget=HEAD_BUDGET)
        first = next(lines, b"")
        body_start = handle.seek(0, os.SEEK_CUR)
        record = loads_object(first)
        info = header_info(record, path.stem)
        head = Head(info=info, body_start=body_start)
        if info is None:
            head = self._damaged_head(path, first, record, body_start)
        title_from = [first] if head.body_start == 0 else []
        for raw in itertools.chain(title_from, lines):
            # Quiet: the tail or history reader reports a corrupt line; once is enough.
            entry = entry_of(loads_object(raw))
            if entry is None or head.info is None:
                continue
            if head.damaged and not head.info.created_ms:
                head.info.created_ms = head.info.updated_ms = entry.ts_ms
            if entry.message.role == "user":
                head.info.title = entry.message.content[:TITLE_LENGTH]
                break
        return head

    def _damaged_head(
        self, path: Path, first: bytes | None, record: dict[str, object] | None, body_start: int
    ) -> Head:
        """The first line is not a valid header: rebuild what we can. When it is an entry
        (the header is missing), the body starts at 0 so that entry is kept."""
        fields = surviving_fields(first)
        info = SessionInfo(
            id=path.stem,
            agent_id=fields.get("agent_id", "main"),
            user_id=fields.get("user_id", ""),
            created_ms=fields.get("created_ms", 0),
            updated_ms=fields.get("created_ms", 0),
        )
        start = 0 if entry_of(record) is not None else body_start
        return Head(info, start, damaged=True, owner_known="user_id" in fields)

    def entries_before(
        self,
        handle: ReadableFile,
        path: Path,
        end: int,
        stop: int,
        turns: int,
        *,
        warn: bool = True,
    ) -> tuple[list[SessionEntry], bool]:
        """Entries backwards from `end` (not before `stop`) until `turns` + 1 turns are seen,
        oldest first; and whether `stop` was reached."""
        found: list[SessionEntry] = []
        seen: set[int] = set()
        skipped = 0
        reached = True
        for line in lines_backward(handle, end, stop=stop):
            entry = _entry_line(line)
            if entry is None:
                skipped += _is_bad(line)
                continue
            found.append(entry)
            seen.add(entry.turn)
            if len(seen) > turns:
                reached = False
                break
        if warn:
            self._report_skipped(path, skipped)
        found.reverse()
        return found, reached

    def _exists(self, read: TailRead, path: Path) -> TailRead | None:
        """A damaged header with no entry behind it is no session (a crash during `create`);
        with entries, the session is kept and the damage reported once."""
        head = read.head
        if head.info is None:
            return None
        note_last(head.info, read.entries)
        if not head.damaged:
            return read
        if not read.entries:
            self.warn_once(path, "header", "%s: no valid header line and no entries; skipped")
            return None
        self.warn_once(
            path,
            "header",
            "%s: damaged header line; the session is kept from its entries. Restore the "
            "first line from a backup to get its owner and agent back if they are wrong.",
        )
        return read

    def _report_skipped(self, path: Path, skipped: int) -> None:
        if skipped:
            _log.warning(
                "%s: skipped %d torn or corrupt line(s) (or longer than 8 MB)", path, skipped
            )

    def _read_at(self, handle: ReadableFile, offset: int, length: int) -> bytes:
        handle.seek(offset)
        return handle.read(length)


class _Counting:
    """A binary file that adds what it reads to its reader's `bytes_read`."""

    def __init__(self, handle: ReadableFile, reader: SessionFileReader) -> None:
        self._handle = handle
        self._reader = reader

    def read(self, size: int = -1, /) -> bytes:
        data = self._handle.read(size)
        self._reader.bytes_read += len(data)
        return data

    def readline(self, size: int = -1, /) -> bytes:
        data = self._handle.readline(size)
        self._reader.bytes_read += len(data)
        return data

    def seek(self, offset: int, whence: int = 0, /) -> int:
        return self._handle.seek(offset, whence)


def _entry_line(raw: bytes | None) -> SessionEntry | None:
    return entry_of(loads_object(raw))


def _is_bad(raw: bytes | None) -> bool:
    """A line worth a warning: too long, torn or corrupt (blank lines and headers are fine)."""
    if raw is None:
        return True
    return bool(raw.strip()) and not is_other_record(loads_object(raw))
