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

SUPPORTED = (
    sys.platform.startswith("linux")
    and Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists()
)
_libc = ctypes.CDLL(None, use_errno=True) if SUPPORTED else None


def become_subreaper() -> None:
    """Run in the child between fork and exec (`preexec_fn`); the attribute survives exec.
    Only a foreign-function call prepared before the fork: nothing here takes a lock."""
    if _libc is not None:
        _libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def descendants(root: int) -> list[int]:
    """Every live process below `root`, parents before children. Walks the kernel's child lists
    (`/proc/<pid>/task/<tid>/children`): cost follows the tree, not the machine's process count."""
    found: list[int] = []
    stack = [root]
    while stack:
        for child in _children(stack.pop()):
            if not _zombie(child):  # already dead; its parent reaps it
                found.append(child)
            stack.append(child)
    return found


def _children(pid: int) -> list[int]:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:  # gone meanwhile
        return []
    children: list[int] = []
    for task in tasks:
        try:
            children += [
                int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()
            ]
        except OSError:
            continue
    return children


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


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
