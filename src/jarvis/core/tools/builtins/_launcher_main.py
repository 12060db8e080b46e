"""The pre-forked launcher's own process (standard library only; run as a file with `-I -S`).

Jarvis starts it once (`_launch.Launcher`) and asks it over a SOCK_SEQPACKET socket to start
the unconfined `bash` outer process: a request is JSON `{"argv", "cwd", "env"}` with the
child's stdin, stdout, stderr and up to three more fds attached (SCM_RIGHTS), which the child
gets as fds 3, 4, 5. The child makes itself a child subreaper (that is why it needs a
`preexec_fn`, and why a small process forks it instead of the server: copying this process is
cheap) and starts its own session. The answer is `{"pid": N}` or `{"error": "…"}`. When Jarvis
goes away (EOF on the socket) the launcher exits; it reaps its children on SIGCHLD.
"""

from __future__ import annotations

import array
import ctypes
import fcntl
import json
import os
import select
import signal
import socket
import subprocess
import sys

_PR_SET_CHILD_SUBREAPER = 36
_EXTRA = (3, 4, 5)
_MAX_FDS = 6
_libc = ctypes.CDLL(None, use_errno=True)


def _subreaper() -> None:
    _libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _serve(sock: socket.socket) -> None:
    children: list[subprocess.Popen[bytes]] = []
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    while True:
        ready, _, _ = select.select([sock.fileno(), wake_r], [], [])
        if wake_r in ready:
            os.read(wake_r, 512)
        children = [child for child in children if child.poll() is None]
        if sock.fileno() not in ready:
            continue
        fds = array.array("i")
        try:
            data, ancdata, _, _ = sock.recvmsg(1 << 20, socket.CMSG_SPACE(_MAX_FDS * fds.itemsize))
        except InterruptedError:
            continue
        if not data:
            return  # Jarvis is gone
        for level, kind, payload in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
        try:
            child = _start(json.loads(data), list(fds))
            children.append(child)
            reply: dict[str, object] = {"pid": child.pid}
        except Exception as exc:  # the answer says why; the launcher goes on
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        finally:
            for fd in fds:
                os.close(fd)
        sock.send(json.dumps(reply).encode())


def _start(request: dict[str, object], fds: list[int]) -> subprocess.Popen[bytes]:
    stdin, stdout, stderr, *extra = fds
    targets = []
    for number, fd in zip(_EXTRA, extra, strict=False):
        os.dup2(fd, number)  # over the placeholder (see main)
        targets.append(number)
    try:
        return subprocess.Popen(
            list(request["argv"]),  # type: ignore[call-overload]
            cwd=str(request["cwd"]),
            env=dict(request["env"]),  # type: ignore[call-overload]
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            pass_fds=targets,
            start_new_session=True,
            preexec_fn=_subreaper,
        )
    finally:
        null = os.open(os.devnull, os.O_RDWR)
        for number in targets:
            os.dup2(null, number)
        os.close(null)


def main() -> None:
    # fds 3..5 are the children's: held by /dev/null placeholders here, so the socket, the
    # wake-up pipe and every received fd get higher numbers.
    passed = int(sys.argv[1])
    sock_fd = fcntl.fcntl(passed, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(passed)
    null = os.open(os.devnull, os.O_RDWR)
    for number in _EXTRA:
        if number != null:
            os.dup2(null, number)
    if null not in _EXTRA:
        os.close(null)
    _serve(socket.socket(fileno=sock_fd))


if __name__ == "__main__":
    main()
