"""Starting one tool process and knowing when it has ended, with no await in between.

`start(...)` forks and execs synchronously (`subprocess.Popen`): when it returns the process
exists and the caller holds it, so a Stop (a cancellation of the tool's task) can only arrive
after there is something to kill. (`asyncio.create_subprocess_exec` awaits between the fork and
handing the process back; a cancellation there killed bubblewrap alone and could orphan the
sandbox it was setting up.)

- `start(argv, cwd, env, stdin, stdout, stderr, pass_fds, preexec) -> Popen`.
- `await exited(popen) -> int`: its exit status, waiting on a pidfd (no thread, no polling).
- `lifeline() -> int`: the read end of a pipe whose write end only this process holds. A
  process that inherited it sees it readable (EOF) once this process is gone: the sandbox's
  first line checks it, which closes the gap where this process died while bubblewrap was
  still setting up (bwrap ties its sandbox to its own life only after that).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

_lifeline: tuple[int, int] | None = None
_lifeline_lock = threading.Lock()
_lifeline_pid = 0


def start(
    argv: Sequence[str],
    cwd: Path,
    env: dict[str, str],
    stdin: int,
    stdout: int,
    stderr: int,
    pass_fds: Sequence[int] = (),
    preexec: Callable[[], None] | None = None,
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=env,  # an allow-list: never JARVIS_* or other secrets (_environment.py)
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        pass_fds=tuple(pass_fds),
        # Its own session and process group, so one signal reaches everything it starts.
        start_new_session=True,
        preexec_fn=preexec,
    )


async def exited(popen: subprocess.Popen[bytes]) -> int:
    if popen.poll() is not None:
        return popen.returncode
    try:
        fd = os.pidfd_open(popen.pid)
    except (OSError, AttributeError):  # no pidfd (old kernel, not Linux): a thread waits
        return await asyncio.to_thread(popen.wait)
    loop = asyncio.get_running_loop()
    gone: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        if not gone.done():
            gone.set_result(None)

    loop.add_reader(fd, readable)
    try:
        await gone
    finally:
        loop.remove_reader(fd)
        os.close(fd)
    return popen.wait()


def lifeline() -> int:
    global _lifeline, _lifeline_pid
    with _lifeline_lock:
        if _lifeline is None or _lifeline_pid != os.getpid():  # a forked copy makes its own
            _lifeline, _lifeline_pid = os.pipe(), os.getpid()
        return _lifeline[0]
