"""Everything a command started, found and killed — also what left its process group.

`bash -c CMD` runs under an outer process that is a *child subreaper* (`prctl`, Linux): whatever
the command starts and then orphans — `setsid` daemons, double forks — is re-parented to that
outer process instead of init, so it stays in the outer process's tree until we kill it. The
outer process reports the command's exit status on a pipe and then waits on its stdin; we kill
the whole tree below it, then close stdin and let it exit. Unconfined it is a fork of the
pre-forked launcher (`_launcher_main.py`); inside the sandbox, and when the launcher cannot be
used, an outer bash (`OUTER_SCRIPT`, PID 1 of the sandbox's namespace there).

`descendants(pid)` reads `/proc`; `kill_tree(pid, grace)` SIGTERMs every descendant, SIGKILLs
what is left after `grace` seconds (again and again, so a process forking while we kill is
caught too) and returns how many processes it killed.

`fence(pid)` is the last word for one of our own children, whatever state it is in: it stops
the child first (a stopped process cannot fork, so the list of what is below it is final), kills
everything below it, then the child. Synchronous, so no cancellation can cut it in half; under
bubblewrap what is below is the PID namespace's init, and killing that kills the namespace.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
import time
from pathlib import Path

_PR_SET_CHILD_SUBREAPER = 36
_KILL_ROUNDS = 50
_POLL_SEC = 0.02
_FENCE_ROUNDS = 10_000
_SIGKILL_BIT = 1 << (int(signal.SIGKILL) - 1)
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


def fence(child: int, ours: bool = True) -> None:
    """Stop `child`, kill everything below it until nothing is left, then kill it. Idempotent;
    already gone is the goal, not an error. `ours`: our own child (else the launcher's)."""
    try:
        os.kill(child, signal.SIGSTOP)
    except ProcessLookupError:
        return
    # Until it is really stopped (or dead): a fork in flight when the signal came is finished
    # and its child listed, and no further fork can start.
    if ours:
        with contextlib.suppress(ChildProcessError):
            os.waitid(os.P_PID, child, os.WSTOPPED | os.WEXITED | os.WNOWAIT)
    else:
        while _state(child) not in ("T", "t", "Z", "X", ""):
            time.sleep(0)
    for _ in range(_FENCE_ROUNDS):
        alive = [pid for pid in descendants(child) if not _dying(pid)]
        if not alive:
            break
        _signal_all(alive, signal.SIGKILL)
        time.sleep(0)
    with contextlib.suppress(ProcessLookupError):
        os.kill(child, signal.SIGKILL)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


def _dying(pid: int) -> bool:
    """SIGKILL is pending (the kernel finishes it; a namespace's members once its init died)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    for line in status.splitlines():
        if line.startswith(("SigPnd:", "ShdPnd:")) and int(line.split()[1], 16) & _SIGKILL_BIT:
            return True
    return False


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
