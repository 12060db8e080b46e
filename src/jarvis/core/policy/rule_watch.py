"""When the rule files may have changed, told by the kernel (Linux inotify) instead of a `stat`
of each file on every gate decision (two `stat`s were a fifth of a decision's time).

API: `rule_watch() -> RuleWatch | None` (one per process, shared by every `RuleStore`; None
where inotify is missing or cannot be set up: the store then stats its files per call).
- `arm(home, origins) -> int | None`: watch `home` (for `approvals.yaml` and `approvals/`
  appearing, leaving, being renamed), `home/approvals/` (every `.yaml` in it) and each rule
  file that exists (a write, a truncation, a `touch`, a rename over it). Returns the generation
  to remember with what is read *after* this call; None when a path cannot be watched (a
  symlinked rule file, whose link could change unseen, or a watch the kernel refuses), so the
  caller stats instead.
- `generation() -> int`: bumped by every event on a watched rule path (and by a queue
  overflow); one `poll` with no timeout when nothing happened.

The events are queued by the kernel while the writing call runs, so a change finished before a
decision starts is seen by it (the same promise as the `stat`). Not seen: changes made on
another machine to a network file system; `JARVIS_HOME` on NFS should not rely on this.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import select
import struct
import sys
import threading

_IN_MODIFY, _IN_ATTRIB, _IN_CLOSE_WRITE = 0x2, 0x4, 0x8
_IN_MOVED_FROM, _IN_MOVED_TO, _IN_CREATE, _IN_DELETE = 0x40, 0x80, 0x100, 0x200
_IN_DELETE_SELF, _IN_MOVE_SELF, _IN_Q_OVERFLOW, _IN_IGNORED = 0x400, 0x800, 0x4000, 0x8000
_IN_ONLYDIR, _IN_MASK_ADD = 0x01000000, 0x20000000
_IN_NONBLOCK, _IN_CLOEXEC = 0o4000, 0o2000000
_SELF = _IN_DELETE_SELF | _IN_MOVE_SELF
_ENTRIES = _IN_CREATE | _IN_DELETE | _IN_MOVED_FROM | _IN_MOVED_TO | _SELF
_CONTENT = _IN_MODIFY | _IN_ATTRIB | _IN_CLOSE_WRITE
_EVENT = struct.Struct("iIII")
_ALL = "*"  # a watch whose every event counts


class RuleWatch:
    def __init__(self, libc: ctypes.CDLL, fd: int) -> None:
        self._libc = libc
        self._fd = fd
        self._poll = select.poll()
        self._poll.register(fd, select.POLLIN)
        self._names: dict[int, frozenset[str] | str] = {}  # wd -> the entry names that count
        self._generation = 0
        self._lock = threading.Lock()
        self.forked = False  # in a child process: the queue is the parent's, never read it

    def generation(self) -> int:
        if self.forked:
            return -1  # never a generation `arm` returned: the caller stats
        if self._poll.poll(0):
            with self._lock:
                self._drain()
        return self._generation

    def arm(self, home: str, origins: tuple[str, ...]) -> int | None:
        """`origins`: the rule files relative to `home` (`approvals.yaml`, `approvals/a.yaml`)."""
        if self.forked:
            return None
        with self._lock:
            tops = frozenset(origin.split("/", 1)[0] for origin in origins)
            if not self._add(home, _ENTRIES, tops, directory=True):
                return None
            folder = os.path.join(home, "approvals")
            if os.path.isdir(folder) and not self._add(folder, _ENTRIES | _CONTENT, ".yaml"):
                return None
            for origin in origins:
                path = os.path.join(home, origin)
                if os.path.islink(path):
                    return None  # its link may be changed where no watch sees it
                if os.path.exists(path) and not self._add(path, _CONTENT | _SELF, _ALL):
                    return None
            self._drain()
            return self._generation

    def _add(
        self, path: str, mask: int, names: frozenset[str] | str, *, directory: bool = False
    ) -> bool:
        flags = mask | _IN_MASK_ADD | (_IN_ONLYDIR if directory else 0)
        wd = int(self._libc.inotify_add_watch(self._fd, os.fsencode(path), flags))
        if wd < 0:
            return False
        known = self._names.get(wd)
        if known is None or names == _ALL:
            self._names[wd] = names
        elif isinstance(known, frozenset) and isinstance(names, frozenset):
            self._names[wd] = known | names
        elif known != names:
            self._names[wd] = _ALL  # one inode watched for two reasons: every event counts
        return True

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                return
            if not data:
                return
            self._read(data)

    def _read(self, data: bytes) -> None:
        offset = 0
        while offset + _EVENT.size <= len(data):
            wd, mask, _, length = _EVENT.unpack_from(data, offset)
            name = data[offset + _EVENT.size : offset + _EVENT.size + length].rstrip(b"\0")
            offset += _EVENT.size + length
            names = self._names.get(wd)
            if mask & (_IN_Q_OVERFLOW | _IN_IGNORED | _SELF) or _counts(names, name):
                self._generation += 1
            if mask & _IN_IGNORED:
                self._names.pop(wd, None)


def _counts(names: frozenset[str] | str | None, name: bytes) -> bool:
    if names is None or names == _ALL or not name:
        return True
    text = os.fsdecode(name)
    if isinstance(names, frozenset):
        return text in names
    return text.endswith(names)


_WATCH: list[RuleWatch | None] = []
_WATCH_LOCK = threading.Lock()


def _forked() -> None:
    if _WATCH and _WATCH[0] is not None:
        _WATCH[0].forked = True
        os.close(_WATCH[0]._fd)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


def rule_watch() -> RuleWatch | None:
    with _WATCH_LOCK:
        if not _WATCH:
            _WATCH.append(_open())
        return _WATCH[0]


def _open() -> RuleWatch | None:
    if not sys.platform.startswith("linux") or os.environ.get("JARVIS_RULES_NO_INOTIFY"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        fd = int(libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC))
    except (OSError, AttributeError):
        return None
    return RuleWatch(libc, fd) if fd >= 0 else None
