"""Ports for the servers the tests start: a block per process, below the ephemeral range.

Binding port 0 and closing the socket handed out a port that was free a moment ago, which another
xdist worker (with its own launch token), another suite running beside this one, or an outgoing
connection's local port could take before the server bound it. The test's public health probe
then reached someone else's server and its first authenticated call got 401 (a CI failure).

Here each process claims a block of `BLOCK` ports with an `flock` on a file in the temp dir, held
for the process's lifetime, so blocks are disjoint across workers and across suites on the same
machine; the blocks lie below the kernel's `ip_local_port_range`, where no outgoing connection
gets its local port. `free_port()` hands the block's ports out in turn, skipping any a bind says
are in use (something listening, or a connection still in TIME_WAIT).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import tempfile
import threading
from pathlib import Path

BLOCK = 256
FLOOR = 10240  # below: the ports services like to take
LOCK_DIR = Path(tempfile.gettempdir()) / "jarvis-test-ports"
EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def ephemeral_range() -> tuple[int, int]:
    """The kernel's range for outgoing connections' local ports (and for binding port 0)."""
    try:
        low, high = EPHEMERAL_RANGE.read_text(encoding="ascii").split()[:2]
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999  # Linux's default


def block_starts() -> list[int]:
    """The first port of every block, all below the ephemeral range."""
    return list(range(FLOOR, ephemeral_range()[0] - BLOCK + 1, BLOCK))


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class PortBlock:
    """`BLOCK` ports from `start`, this process's while it holds the lock `fd`."""

    def __init__(self, start: int, fd: int) -> None:
        self.start, self.fd, self.owner = start, fd, os.getpid()
        self._next = 0

    def take(self) -> int:
        for _ in range(BLOCK):
            port = self.start + self._next
            self._next = (self._next + 1) % BLOCK
            if _bindable(port):
                return port
        raise RuntimeError(f"no free port in {self.start}..{self.start + BLOCK - 1}")


def claim_block() -> PortBlock:
    """Lock the first block no other process holds (starting at one chosen by the pid, so
    processes starting together rarely try the same files)."""
    LOCK_DIR.mkdir(exist_ok=True)
    with contextlib.suppress(PermissionError):
        LOCK_DIR.chmod(0o1777)  # suites run by other users claim blocks here too
    starts = block_starts()
    first = os.getpid() % len(starts)
    for start in starts[first:] + starts[:first]:
        fd = os.open(LOCK_DIR / f"{start}.lock", os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return PortBlock(start, fd)
    raise RuntimeError(f"all {len(starts)} test port blocks are held ({LOCK_DIR})")


_block: PortBlock | None = None
_guard = threading.Lock()


def free_port() -> int:
    """A port on 127.0.0.1 that nothing uses and no other process will be handed."""
    global _block
    with _guard:
        # A forked child shares its parent's lock: it claims a block of its own.
        if _block is None or _block.owner != os.getpid():
            _block = claim_block()
        return _block.take()
