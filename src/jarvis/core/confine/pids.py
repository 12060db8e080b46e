"""A process-count limit that holds for root too: a `pids` cgroup per confined call.

`ulimit -u` (RLIMIT_NPROC) is not enforced for uid 0, and bubblewrap run by root keeps that uid,
so when Jarvis runs as root (containers, CI) a fork bomb is held by a cgroup instead: v1's
`/sys/fs/cgroup/pids` or v2's root when `pids` is enabled there. For other users it is `None`
and the `ulimit -u` inside the sandbox holds (it counts only the sandbox's user namespace).

API: `PidsGroup.create(max_pids) -> PidsGroup | None`; `.join_fd` (the group's `cgroup.procs`,
opened here by root and passed to the sandbox, whose first process writes `0` to it — "move
me" — before anything forks: no `preexec_fn`); `.remove()` (after every process of the call
is gone).
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import time
import uuid
from pathlib import Path

_V1 = Path("/sys/fs/cgroup/pids")
# Only while something is still inside after the call's kill: at most ~0.2 s.
_REMOVE_ROUNDS = 200
_REMOVE_PAUSE_SEC = 0.001
_V2 = Path("/sys/fs/cgroup")


def _base() -> Path | None:
    if os.geteuid() != 0:
        return None
    if (_V1 / "cgroup.procs").exists() and os.access(_V1, os.W_OK):
        return _V1 / "jarvis"
    try:
        enabled = (_V2 / "cgroup.subtree_control").read_text().split()
    except OSError:
        return None
    return _V2 / "jarvis" if "pids" in enabled and os.access(_V2, os.W_OK) else None


class PidsGroup:
    def __init__(self, path: Path, join_fd: int) -> None:
        self.path = path
        self.join_fd = join_fd

    @classmethod
    def create(cls, max_pids: int) -> PidsGroup | None:
        base = _base()
        if base is None:
            return None
        path = base / uuid.uuid4().hex[:12]
        try:
            base.mkdir(exist_ok=True)
            if base.parent == _V2:
                with contextlib.suppress(OSError):
                    (base / "cgroup.subtree_control").write_text("+pids")
            path.mkdir()
            (path / "pids.max").write_text(str(max_pids))
            fd = os.open(path / "cgroup.procs", os.O_WRONLY)
        except OSError:
            with contextlib.suppress(OSError):
                path.rmdir()
            return None
        return cls(path, fd)

    def close_fd(self) -> None:
        """Once: a second `os.close` of the same number would close whatever another call
        opened under it since (another command's output pipe)."""
        fd, self.join_fd = self.join_fd, -1
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)

    def remove(self) -> None:
        """The group goes, and anything of the call still in it: a process that outlived the
        call's kill by a moment kept `rmdir` at EBUSY, and the group stayed behind."""
        self.close_fd()
        for _ in range(_REMOVE_ROUNDS):
            try:
                self.path.rmdir()
                return
            except OSError as exc:
                if exc.errno != errno.EBUSY:
                    return  # gone already, or not ours to remove
            self._kill_members()
            time.sleep(_REMOVE_PAUSE_SEC)  # SIGKILLed processes leave the group a moment later

    def _kill_members(self) -> None:
        with contextlib.suppress(OSError):
            for pid in (self.path / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):
                    os.kill(int(pid), signal.SIGKILL)
