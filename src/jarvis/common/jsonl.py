"""Append-only JSONL files: the one writer sessions, the audit log and open loops share, and
line readers that never hold a line longer than `MAX_LINE_BYTES`.

Writing: a batch of records is one `write` of whole lines, then (optionally) fsync. A write that
fails part-way (a full disk, a crash) leaves a torn last line; the next append starts on a fresh
line, so a record is never glued onto a torn one. Every `OSError` names the file.

Reading: lines come back as bytes; a line longer than the bound comes back as `None` (its bytes
were skipped, never joined in memory), so the caller can warn and go on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from jarvis.common.i18n import Language, t

# A session entry holding a whole tool result fits many times over; a line past this is damage
# or abuse, and loading it would stall whatever reads it.
MAX_LINE_BYTES = 8 * 1024 * 1024
_CHUNK = 64 * 1024
_MAX_BLOCK = 1024 * 1024


# What a line-based reader may split a line on that JSON leaves raw inside a string (it escapes
# every other one, U+0000–U+001F): NEL and the Unicode line and paragraph separators
# (`str.splitlines`, JavaScript's line terminators).
_LINE_BREAKS = str.maketrans({"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def one_line(json_text: str) -> str:
    """A JSON text as exactly one line for JSON Lines output: the separators JSON allows raw in
    strings escaped (outside strings JSON never has them, so the value is unchanged)."""
    return json_text.translate(_LINE_BREAKS)


def json_line(value: Any) -> str:
    """`value` as one JSON Lines record: UTF-8 text kept readable, every line break escaped."""
    return one_line(json.dumps(value, ensure_ascii=False))


class ReadableFile(Protocol):
    """What the line readers need of a file opened in binary mode."""

    def read(self, size: int = -1, /) -> bytes: ...

    def readline(self, size: int = -1, /) -> bytes: ...

    def seek(self, offset: int, whence: int = 0, /) -> int: ...


class DataFileError(Exception):
    """A data file the process cannot start without could not be read. `str()` is the one
    line to show (English); `message(lang)` the same in the user's language."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(self.message("en"))

    def message(self, lang: Language) -> str:
        return t("files.data_unreadable", lang, path=self.path, reason=self.reason)


def named_error(exc: OSError, path: Path) -> OSError:
    """The same kind of error naming `path` (a failed `write` names no file by itself)."""
    if exc.filename == str(path):
        return exc
    return type(exc)(exc.errno, exc.strerror or str(exc), str(path))


class JsonlWriter:
    """Appends whole lines to one file. Before each append it looks at the file's last byte
    (one `pread`), so a line torn by a crash, a full disk or another process is never glued
    onto, whoever tore it."""

    def __init__(self, path: Path, *, fsync: bool = False) -> None:
        self.path = path
        self.fsync = fsync

    def append(self, lines: Iterable[str]) -> None:
        """Append each JSON text as one line; raises `OSError` naming the file."""
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        if not data:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except OSError as exc:
            raise named_error(exc, self.path) from None
        try:
            if not _ends_with_newline(fd):
                data = b"\n" + data
            _write_all(fd, data)
            if self.fsync:
                os.fsync(fd)
        except OSError as exc:
            raise named_error(exc, self.path) from None
        finally:
            os.close(fd)


def create_with_line(path: Path, line: str, *, fsync: bool = False) -> None:
    """Create `path` holding one line, all or nothing: written to a temp file, then linked into
    place (so an existing file is never replaced: `FileExistsError`). A full disk leaves no
    file, not a 0-byte one; the error names `path`. The file is private to the user (0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            _write_all(fd, (line + "\n").encode("utf-8"))
            if fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.link(tmp_name, path)
    except OSError as exc:
        raise named_error(exc, path) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)


def loads_object(raw: bytes | None) -> dict[str, Any] | None:
    """The JSON object on one line, or None for a blank, torn, corrupt or skipped line."""
    if raw is None or not raw.strip():
        return None
    try:
        record = json.loads(raw)
    except ValueError:  # includes JSONDecodeError and UnicodeDecodeError
        return None
    return record if isinstance(record, dict) else None


def read_objects(path: Path) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """(line number, object) for each non-blank line of `path`, in order; the object is None
    for a torn, corrupt or over-long line. Raises `OSError` (naming the file) if it cannot be
    opened or read."""
    with path.open("rb") as handle:
        for number, raw in enumerate(lines_forward(handle), 1):
            if raw is None or raw.strip():
                yield number, loads_object(raw)


def report_skipped(log: logging.Logger, path: Path, lines: list[int]) -> None:
    """One warning for every line a read skipped (not one per line)."""
    if lines:
        shown = ", ".join(str(n) for n in lines[:5]) + (", …" if len(lines) > 5 else "")
        log.warning("%s: skipped %d torn or corrupt line(s) (line %s)", path, len(lines), shown)


def lines_forward(
    handle: ReadableFile, *, max_line: int = MAX_LINE_BYTES, budget: int | None = None
) -> Iterator[bytes | None]:
    """Lines from the handle's position (without the newline); `None` for one too long. Stops
    after `budget` bytes when given (the line under way is then not yielded)."""
    used = 0
    while budget is None or used < budget:
        limit = max_line + 1 if budget is None else min(max_line + 1, budget - used)
        raw = handle.readline(limit)
        if not raw:
            return
        used += len(raw)
        if raw.endswith(b"\n"):
            yield raw[:-1]
        elif len(raw) <= max_line:
            if budget is not None and used >= budget:
                return
            yield raw  # the last line, without a newline
        else:
            used += _skip_rest_of_line(handle)
            yield None


def lines_backward(
    handle: ReadableFile, end: int, *, stop: int = 0, max_line: int = MAX_LINE_BYTES
) -> Iterator[bytes | None]:
    """Lines between byte `stop` (a line start) and byte `end`, last first; `None` for one too
    long. Reads blocks backwards, so a short tail costs a small read however large the file."""
    position = end
    carry = b""  # the end of a line that starts in an earlier block
    too_long = False  # the line under way is past the bound: its bytes are dropped
    block = 4 * 1024
    while position > stop:
        start = max(stop, position - block)
        handle.seek(start)
        data = handle.read(position - start)
        position, block = start, min(block * 2, _MAX_BLOCK)
        pieces = data.split(b"\n")
        # The last piece continues the line in `carry`; the first may start in an earlier block.
        last = pieces.pop()
        if not too_long:
            carry = last + carry
            too_long = len(carry) > max_line
        for piece in reversed(pieces):
            yield None if too_long else carry
            carry, too_long = piece, len(piece) > max_line
        if too_long:
            carry = b""
    if end > stop:
        yield None if too_long else carry


def _skip_rest_of_line(handle: ReadableFile) -> int:
    skipped = 0
    while chunk := handle.readline(_CHUNK):
        skipped += len(chunk)
        if chunk.endswith(b"\n"):
            break
    return skipped


def _ends_with_newline(fd: int) -> bool:
    size = os.fstat(fd).st_size
    return size == 0 or os.pread(fd, 1, size - 1) == b"\n"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
