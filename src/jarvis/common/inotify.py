"""Linux inotify on the event loop: file watching that costs nothing while nothing changes.

watchfiles' Rust loop wakes every `step` milliseconds to look for a stop and for quiet after a
change, taking the GIL each time: at the 3 ms the extension watcher needs for a ~10 ms reload,
that alone was most of an idle server's CPU. Here the inotify descriptor is a reader on the
event loop: the process wakes only when the kernel reports a change, and a short timer (`quiet`,
at most `longest` after the first change) gathers a burst (an editor's save is several events)
into one batch.

`InotifyWatch(root, wanted)`: `root` itself (its direct entries) and, recursively, every entry
of `root` whose name `wanted` accepts; a wanted folder created or moved in later is watched from
then on. `changes()` yields sets of changed paths (files, or a folder for a created, moved or
deleted folder; `root/<name>` for all when the kernel's queue overflowed). `available()` says
whether this OS has inotify (callers fall back to watchfiles elsewhere).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import os
import struct
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

_IN_MODIFY = 0x2
_IN_ATTRIB = 0x4
_IN_CLOSE_WRITE = 0x8
_IN_MOVED_FROM = 0x40
_IN_MOVED_TO = 0x80
_IN_CREATE = 0x100
_IN_DELETE = 0x200
_IN_DELETE_SELF = 0x400
_IN_MOVE_SELF = 0x800
_IN_Q_OVERFLOW = 0x4000
_IN_IGNORED = 0x8000
_IN_ISDIR = 0x40000000
_IN_NONBLOCK = 0o4000
_IN_CLOEXEC = 0o2000000
_MASK = (
    _IN_MODIFY | _IN_ATTRIB | _IN_CLOSE_WRITE | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE
    | _IN_DELETE | _IN_DELETE_SELF | _IN_MOVE_SELF
)  # fmt: skip
_NEW_ENTRY = _IN_CREATE | _IN_MOVED_TO
# The root's own watch sees entries come and go only: other files there (databases, logs)
# change all the time, and their writes must not wake the process. A wanted file in the root
# is watched itself.
_ROOT_MASK = _IN_CREATE | _IN_DELETE | _IN_MOVED_FROM | _IN_MOVED_TO
_HEADER = struct.Struct("iIII")  # wd, mask, cookie, len


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        _ = libc.inotify_init1, libc.inotify_add_watch
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _libc()


def available() -> bool:
    return _LIBC is not None


class InotifyWatch:
    def __init__(
        self,
        root: Path,
        wanted: Callable[[str], bool],
        *,
        quiet: float = 0.003,
        longest: float = 0.05,
    ) -> None:
        """Creates the OS watches now (so nothing written after this returns is missed)."""
        assert _LIBC is not None, "inotify is not available here"
        self.root = root
        self.wanted = wanted
        self.quiet = quiet
        self.longest = longest
        fd = _LIBC.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        self._fd = fd
        self._paths: dict[int, Path] = {}
        self._pending: set[str] = set()
        self._events = 0  # wanted events read so far
        self._checked = 0  # `_events` when the batch's timer was last set
        self._first = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._batches: asyncio.Queue[set[str] | None] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._add(root, _ROOT_MASK)
        for entry in _entries(root):
            if wanted(entry.name):
                self._add_tree(entry)
        self._loop.add_reader(fd, self._readable)

    def close(self) -> None:
        if self._fd < 0:
            return
        self._loop.remove_reader(self._fd)
        os.close(self._fd)
        self._fd = -1
        if self._timer is not None:
            self._timer.cancel()
        self._batches.put_nowait(None)

    async def changes(self, stop: asyncio.Event) -> AsyncIterator[set[str]]:
        """Batches of changed paths until `stop` is set (then the watch is closed)."""
        stopper = asyncio.create_task(stop.wait())
        try:
            while True:
                getter = asyncio.create_task(self._batches.get())
                await asyncio.wait({getter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                if not getter.done():
                    getter.cancel()
                    return
                batch = getter.result()
                if batch is None:
                    return
                yield batch
        finally:
            stopper.cancel()
            self.close()

    def _add(self, path: Path, mask: int = _MASK) -> None:
        assert _LIBC is not None
        wd = _LIBC.inotify_add_watch(self._fd, os.fsencode(path), mask)
        if wd >= 0:
            self._paths[wd] = path

    def _add_tree(self, path: Path) -> None:
        """A folder and everything below it (symlinks are not followed); a file alone."""
        if path.is_symlink():
            return
        self._add(path)
        if path.is_dir():
            for sub in _entries(path):
                self._add_tree(sub)

    def _readable(self) -> None:
        while True:
            try:
                data = os.read(self._fd, 64 * 1024)
            except (BlockingIOError, InterruptedError):
                break
            if not data:
                break
            self._parse(data)
        if self._pending and self._timer is None:
            self._first = self._loop.time()
            self._checked = self._events
            self._timer = self._loop.call_later(self.quiet, self._flush)

    def _parse(self, data: bytes) -> None:
        offset = 0
        while offset + _HEADER.size <= len(data):
            wd, mask, _cookie, length = _HEADER.unpack_from(data, offset)
            raw = data[offset + _HEADER.size : offset + _HEADER.size + length]
            offset += _HEADER.size + length
            if mask & _IN_Q_OVERFLOW:
                self._pending.update(str(e) for e in _entries(self.root) if self.wanted(e.name))
                continue
            folder = self._paths.get(wd)
            if mask & _IN_IGNORED:
                self._paths.pop(wd, None)
            if folder is None:
                continue
            name = os.fsdecode(raw.rstrip(b"\0"))
            path = folder / name if name else folder
            if folder == self.root and not self.wanted(name):
                continue
            self._pending.add(str(path))
            self._events += 1
            if mask & _NEW_ENTRY and (folder == self.root or mask & _IN_ISDIR):
                self._add_tree(path)  # files made inside before this are in the batch's re-read

    def _flush(self) -> None:
        """Hand over the batch once quiet for `quiet`, or `longest` after its first change."""
        if self._events != self._checked and self._loop.time() - self._first < self.longest:
            self._checked = self._events
            self._timer = self._loop.call_later(self.quiet, self._flush)
            return
        self._timer = None
        batch, self._pending = self._pending, set()
        self._batches.put_nowait(batch)


def _entries(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def watch_folder(
    folder: Path, wanted: Callable[[str], bool], stop: asyncio.Event, *, step_ms: int = 50
) -> AsyncIterator[set[str]]:
    """Batches of changed paths among `folder`'s entries whose name `wanted` accepts, until
    `stop`: inotify on Linux — its watch exists when this returns, so nothing written after
    is missed — and watchfiles elsewhere (waking every `step_ms`)."""
    if available():
        return InotifyWatch(folder, wanted).changes(stop)
    return _watchfiles(folder, wanted, stop, step_ms)


async def _watchfiles(
    folder: Path, wanted: Callable[[str], bool], stop: asyncio.Event, step_ms: int
) -> AsyncIterator[set[str]]:
    from watchfiles import awatch

    async for changes in awatch(
        folder,
        watch_filter=lambda _change, path: wanted(Path(path).name),
        step=step_ms,
        debounce=50,
        stop_event=stop,
        recursive=False,
    ):
        yield {path for _change, path in changes}
