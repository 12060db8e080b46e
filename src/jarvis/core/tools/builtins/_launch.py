"""Starting one tool process and knowing when it has ended, with no await in between.

`start(...)` forks and execs synchronously (`subprocess.Popen`): when it returns the process
exists and the caller holds it, so a Stop (a cancellation of the tool's task) can only arrive
after there is something to kill. (`asyncio.create_subprocess_exec` awaits between the fork and
handing the process back; a cancellation there killed bubblewrap alone and could orphan the
sandbox it was setting up.)

- `start(argv, cwd, env, stdin, stdout, stderr, pass_fds, preexec) -> Popen`.
- `await exited(popen, pid=0) -> int | None`: until it ended, waiting on a pidfd (no thread, no
  polling); the exit status for our own child.
- `LAUNCHER.start(argv, cwd, env, stdio, status) -> pid`: the unconfined command through the
  pre-forked launcher (`_launcher_main.py`): its outer process (a fork of the launcher, a child
  subreaper in its own session, no exec) starts `argv` with `posix_spawn`, writes its exit
  status to `status`, and holds its orphans until `stdio[0]` is closed. No `preexec_fn` and no
  copy of the server; no outer bash.
- `lifeline() -> int`: the read end of a pipe whose write end only this process holds. A
  process that inherited it sees it readable (EOF) once this process is gone: the sandbox's
  first line checks it, which closes the gap where this process died while bubblewrap was
  still setting up (bwrap ties its sandbox to its own life only after that).
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
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


async def exited(popen: subprocess.Popen[bytes] | None, pid: int = 0) -> int | None:
    """Until the process has ended: ours (`popen`, its exit status) or the launcher's (`pid`;
    no status: it is the launcher's child)."""
    if popen is not None:
        if popen.poll() is not None:
            return popen.returncode
        pid = popen.pid
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return popen.wait() if popen is not None else None
    except (OSError, AttributeError):  # no pidfd (old kernel, not Linux): a thread waits
        if popen is None:
            raise
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
    return popen.wait() if popen is not None else None


def lifeline() -> int:
    global _lifeline, _lifeline_pid
    with _lifeline_lock:
        if _lifeline is None or _lifeline_pid != os.getpid():  # a forked copy makes its own
            _lifeline, _lifeline_pid = os.pipe(), os.getpid()
        return _lifeline[0]


_LAUNCHER_FILE = Path(__file__).with_name("_launcher_main.py")
_ATTEMPTS = 4  # spares tried for one request (one killed, a launcher restarted, …)


class LaunchError(OSError):
    """The launcher could not start the process (its answer says why)."""


class Launcher:
    """The pre-forked launcher (`_launcher_main.py`): a small process, started once, that forks
    the unconfined command's outer process for us — a child subreaper needs code between fork
    and exec, and forking a small process costs a fraction of copying the server. Synchronous
    like `start`: when `start` returns, the outer process exists. Restarted if it died; per
    process (a fork makes its own)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = 0
        self._spare: socket.socket | None = None  # the latest spare's own socket

    def start(
        self,
        argv: Sequence[str],
        cwd: Path,
        env: dict[str, str],
        stdio: tuple[int, int, int],
        status: int,
    ) -> int:
        """The pid of the outer process: `stdio` is its stdin (held until closed) and the
        command's stdout and stderr (its stdin is /dev/null); `status` gets the exit status.

        The request goes to one spare over its own socket. EOF there means that spare died
        before answering (killed): it started nothing (the answer comes before the command),
        so the next spare gets the request."""
        request = json.dumps({"argv": list(argv), "cwd": str(cwd), "env": env}).encode()
        fds = array.array("i", [*stdio, status])
        with self._lock:
            for _ in range(_ATTEMPTS):
                spare = self._take_spare()
                if spare is None:
                    continue
                try:
                    spare.sendmsg([request], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
                    reply = spare.recv(65_536)
                except OSError:
                    reply = b""
                finally:
                    spare.close()
                if reply:
                    answer = json.loads(reply)
                    if "pid" in answer:
                        return int(answer["pid"])
                    raise LaunchError(answer.get("error", "the launcher refused"))
        raise LaunchError("the launcher is not answering")

    def _take_spare(self) -> socket.socket | None:
        """The newest spare announced (each announcement carries that spare's socket); waits
        for one if none is there yet. None when the launcher died (a fresh one is started)."""
        sock = self._connected()
        spare, self._spare = self._spare, None
        blocking = spare is None
        while True:
            fds = array.array("i")
            try:
                data, ancdata, _, _ = sock.recvmsg(
                    256, socket.CMSG_SPACE(fds.itemsize), 0 if blocking else socket.MSG_DONTWAIT
                )
            except BlockingIOError:
                return spare
            except OSError:
                data, ancdata = b"", []
            for level, kind, payload in ancdata:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
            if not data or not fds:
                for fd in fds:
                    os.close(fd)
                if spare is not None:
                    spare.close()
                self._reset()  # the launcher is gone
                return None
            if spare is not None:
                spare.close()  # an older one: the launcher replaced it
            spare, blocking = socket.socket(fileno=fds[0]), False

    def _connected(self) -> socket.socket:
        alive = self._process is not None and self._process.poll() is None
        if self._sock is None or self._owner != os.getpid() or not alive:
            self._reset()
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                self._process = subprocess.Popen(
                    [sys.executable, "-I", "-S", str(_LAUNCHER_FILE), str(theirs.fileno())],
                    pass_fds=(theirs.fileno(),),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                )
            finally:
                theirs.close()
            self._sock, self._owner = ours, os.getpid()
        assert self._sock is not None
        return self._sock

    def _reset(self) -> None:
        if self._owner == os.getpid():
            for sock in (self._sock, self._spare):
                if sock is not None:
                    sock.close()  # EOF: the launcher and its spare exit
        self._sock = self._spare = None
        if self._process is not None and self._owner == os.getpid():
            with contextlib.suppress(OSError):
                self._process.kill()
            self._process.wait()
        self._process = None


LAUNCHER = Launcher()
