"""The pre-forked launcher's own process (standard library only; run as a file with `-I -S`).

Jarvis starts it once (`_launch.Launcher`). The launcher keeps one *spare* forked ahead of
time: a copy of this small process that has already started its own session and made itself a
child subreaper. Each spare is announced to Jarvis on the launcher's SOCK_SEQPACKET socket
(`{"spare": pid}` with the spare's own socket attached, SCM_RIGHTS); Jarvis sends one request
on the newest spare's socket: JSON `{"argv", "cwd", "env"}` with four fds attached — the outer
process's stdin, the command's stdout and stderr, and the status pipe. The spare answers
`{"pid": N}` (itself) at once — no fork, no exec on the way — or `{"error": "…"}`, and becomes
that command's outer process; the launcher forks and announces the next spare. A spare killed
before it answered started nothing; Jarvis sees EOF on its socket and tries the next one.

The outer process never execs: it starts the command with `posix_spawn` (vfork + exec: stdin
/dev/null, stdout, stderr, nothing else; SIGPIPE and SIGXFSZ back to their defaults, no signal
blocked), waits for it, writes its exit status as a shell reports it (128 + the signal when
killed) to the status pipe, then reaps the orphans that come back to it until Jarvis closes its
stdin (Jarvis kills everything below it first).

When Jarvis goes away (EOF on the launcher's socket, or on a spare's) they exit; the launcher
reaps its children on SIGCHLD.
"""

from __future__ import annotations

import array
import contextlib
import ctypes
import gc
import json
import os
import select
import signal
import socket
import sys

_PR_SET_CHILD_SUBREAPER = 36
_FDS = 4  # outer stdin, command stdout, command stderr, status
_TAKEN = b"t"  # a spare took a request: fork the next one
_libc = ctypes.CDLL(None, use_errno=True)


def _serve(sock: socket.socket) -> None:
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    note_r, note_w = os.pipe()
    own = (wake_r, wake_w, note_r)
    spare = _fork_spare(sock, note_w, own)
    while True:
        ready, _, _ = select.select([sock.fileno(), note_r, wake_r], [], [])
        if sock.fileno() in ready and not _recv_or_eof(sock):
            return  # Jarvis is gone (it never writes here)
        if note_r in ready:  # before reaping: a spare's note comes before its end
            for _ in range(os.read(note_r, 512).count(_TAKEN)):
                spare = _fork_spare(sock, note_w, own)
        if wake_r in ready:
            os.read(wake_r, 512)
            if spare in _reap():  # the spare died without taking a request (killed)
                spare = _fork_spare(sock, note_w, own)


def _recv_or_eof(sock: socket.socket) -> bytes:
    try:
        return sock.recv(64)
    except OSError:  # reset: Jarvis closed it with announcements unread
        return b""


def _reap() -> list[int]:
    ended: list[int] = []
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        ended.append(pid)


def _fork_spare(sock: socket.socket, note_w: int, own: tuple[int, ...]) -> int:
    """Fork the next spare and announce it to Jarvis with its own socket (a request reaches
    exactly this spare; if it dies, Jarvis sees EOF there and tries the next one)."""
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pid = os.fork()
    if pid:
        mine.close()
        with contextlib.suppress(OSError):  # Jarvis gone: the loop sees EOF next
            announcement = json.dumps({"spare": pid}).encode()
            passed = array.array("i", [theirs.fileno()])
            sock.sendmsg([announcement], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, passed)])
        theirs.close()
        return pid
    code = 1
    try:  # the spare, then the outer process: never back into the launcher's loop
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        gc.disable()  # short-lived; a collection would touch (copy) every page of the launcher
        for fd in own:
            os.close(fd)
        theirs.close()
        sock.close()  # the launcher's: Jarvis must see EOF there once the launcher is gone
        os.setsid()  # its own session and process group: one signal reaches the command
        _libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        request, fds = _take(mine)
        if request is None:  # Jarvis dropped this spare (or is gone)
            code = 0
            return 0
        _note(note_w, _TAKEN)
        os.close(note_w)
        mine.close()
        code = _outer(request, fds)
    except Exception as exc:  # reported; the `finally` keeps this copy from ever serving
        os.write(2, f"jarvis launcher: {type(exc).__name__}: {exc}\n".encode(errors="replace"))
    finally:
        os._exit(code)


def _note(note_w: int, what: bytes) -> None:
    """Tell the launcher; a launcher that is gone (killed) changes nothing for the command."""
    with contextlib.suppress(OSError):
        os.write(note_w, what)


_SAMPLE = json.dumps({"argv": ["/bin/bash", "-c", ":"], "cwd": "/", "env": {"PATH": "/bin"}})


def _take(sock: socket.socket) -> tuple[dict[str, object] | None, list[int]]:
    """The next well-formed request and its fds, answered with this process's pid; None at EOF.
    Everything the answer needs is run once before waiting: a fork shares the launcher's pages
    until first written, and Python writes (reference counts) to whatever it touches, so the
    first run pays a page copy for each (~0.3 ms) — better before the request than after."""
    answer = json.dumps({"pid": os.getpid()}).encode()
    _check(json.loads(_SAMPLE), _FDS)
    array.array("i").frombytes(bytes(_FDS * 4))
    while True:
        fds = array.array("i")
        try:
            data, ancdata, _, _ = sock.recvmsg(1 << 20, socket.CMSG_SPACE(_FDS * fds.itemsize))
        except InterruptedError:
            continue
        if not data:
            return None, []
        for level, kind, payload in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
        try:
            request = _check(json.loads(data), len(fds))
        except (ValueError, KeyError, TypeError) as exc:  # answered; still the spare
            for fd in fds:
                os.close(fd)
            sock.send(json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode())
            continue
        sock.send(answer)
        return request, list(fds)


def _check(request: dict[str, object], fd_count: int) -> dict[str, object]:
    argv, env = request["argv"], request["env"]
    if fd_count != _FDS or not isinstance(argv, list) or not argv:
        raise ValueError(f"an argv and {_FDS} fds expected")
    if not isinstance(env, dict) or not isinstance(request["cwd"], str):
        raise ValueError("an env object and a cwd expected")
    return request


def _outer(request: dict[str, object], fds: list[int]) -> int:
    """Start the command, report its status, hold its orphans; the exit code of this process."""
    stdin, stdout, stderr, status = fds
    os.dup2(stdin, 0)
    os.dup2(stdout, 1)
    os.dup2(stderr, 2)
    status = os.dup(status)  # not inheritable: the command gets 0, 1 and 2 only
    os.closerange(3, status)  # the received fds
    os.closerange(status + 1, 1 << 16)
    os.chdir(str(request["cwd"]))
    code = _run(request["argv"], request["env"])  # type: ignore[arg-type]
    os.write(status, b"%d\n" % code)
    os.close(status)
    _hold_orphans()
    return 0


def _run(argv: list[str], env: dict[str, str]) -> int:
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        child = os.posix_spawn(
            argv[0],
            argv,
            env,
            file_actions=[(os.POSIX_SPAWN_DUP2, null, 0)],
            setsigdef=(signal.SIGPIPE, signal.SIGXFSZ),  # as subprocess does (Python ignores them)
            setsigmask=(),
        )
    except OSError as exc:
        os.write(2, f"{argv[0]}: {exc.strerror}\n".encode(errors="replace"))
        return 127
    finally:
        os.close(null)
    _, wait_status = os.waitpid(child, 0)
    code = os.waitstatus_to_exitcode(wait_status)
    return 128 - code if code < 0 else code


def _hold_orphans() -> None:
    """Until Jarvis closes stdin (it kills what is below first): orphans that end are reaped."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # from now on the kernel reaps them
    _reap()  # the ones that ended before
    while os.read(0, 512):
        pass


def main() -> None:
    passed = int(sys.argv[1])
    sock = socket.socket(fileno=os.dup(passed))  # dup: close-on-exec and non-inheritable
    os.close(passed)
    _serve(sock)


if __name__ == "__main__":
    main()
