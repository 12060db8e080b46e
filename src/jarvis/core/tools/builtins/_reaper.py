"""Everything a command started, found and killed — also what left its process group.

`bash -c CMD` runs under an outer bash that is a *child subreaper* (`prctl`, Linux): whatever
the command starts and then orphans — `setsid` daemons, double forks — is re-parented to that
outer process instead of init, so it stays in the outer process's tree until we kill it. The
outer bash reports the command's exit status on a pipe and then waits on its stdin; we kill
the whole tree below it, then close stdin and let it exit.

`descendants(pid)` reads `/proc`; `kill_tree(pid, grace)` SIGTERMs every descendant, SIGKILLs
what is left after `grace` seconds (again and again, so a process forking while we kill is
caught too) and returns how many processes it killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
from pathlib import Path

_PR_SET_CHILD_SUBREAPER = 36
_KILL_ROUNDS = 50
_POLL_SEC = 0.02
# The command runs as `$1` of a second bash (its own `bash -c`, unchanged semantics); the outer
# one waits for it, writes its status to fd {status_fd}, then blocks until we close its stdin.
OUTER_SCRIPT = (
    '/bin/bash -c "$1" </dev/null {status_fd}>&- & wait $!; echo $? >&{status_fd}; read -r _'
)

SUPPORTED = sys.platform.startswith("linux") and Path("/proc/self/stat").exists()
_libc = ctypes.CDLL(None, use_errno=True) if SUPPORTED else None


def become_subreaper() -> None:
    """Run in the child between fork and exec (`preexec_fn`); the attribute survives exec.
    Only a foreign-function call prepared before the fork: nothing here takes a lock."""
    if _libc is not None:
        _libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def descendants(root: int) -> list[int]:
    """Every live process below `root`, parents before children."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":  # a zombie is already dead; its parent reaps it
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: list[int] = []
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), ()):
            found.append(child)
            stack.append(child)
    return found


async def kill_tree(root: int, grace: float) -> int:
    """SIGTERM everything below `root`, SIGKILL what survives `grace` seconds; how many
    distinct processes were there to kill."""
    victims = descendants(root)
    if not victims:
        return 0
    killed = set(victims)
    _signal_all(victims, signal.SIGTERM)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    while victims and loop.time() < deadline:
        await asyncio.sleep(_POLL_SEC)
        victims = descendants(root)
        killed.update(victims)
    for _ in range(_KILL_ROUNDS):
        if not victims:
            break
        _signal_all(victims, signal.SIGKILL)
        await asyncio.sleep(0)
        victims = descendants(root)
        killed.update(victims)
    return len(killed)


def _signal_all(pids: list[int], signum: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)
