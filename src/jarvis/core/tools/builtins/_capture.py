"""One output stream of a `bash` command through a pipe of our own, read with `add_reader`."""

from __future__ import annotations

import asyncio
import contextlib
import os
from types import TracebackType

from jarvis.core.tools.builtins._output import ByteBudget

# After the group is killed every writer is gone; a pipe still open belongs to a process that
# left the group (setsid, a daemon), and the call does not wait for it.
_DRAIN_SEC = 1.0
_READ_CHUNK = 65_536


class Capture:
    """One output stream of the command through a pipe of our own.

    Python 3.11's `process.wait()` returns only once every asyncio-owned pipe is closed, so a
    background child holding stdout would keep a finished command waiting; with our own pipe,
    `wait()` returns when bash exits and the group kill closes the rest. The read end is
    watched with `add_reader` from the moment the capture is entered — nothing to await, so
    the command starts in the same step as the call (a transport's set-up took two turns of a
    busy event loop per stream).
    """

    def __init__(self, keep_bytes: int, pipe: tuple[int, int | None] | None = None) -> None:
        """`pipe`: one made earlier (its write end None once only the child holds it)."""
        self.budget = ByteBudget(keep_bytes)
        self._read_fd: int | None
        self._write_fd: int | None
        self._read_fd, self._write_fd = os.pipe() if pipe is None else pipe
        os.set_blocking(self._read_fd, False)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closed = asyncio.Event()  # a whole line arrived, or the pipe ended
        self._ended = asyncio.Event()  # the pipe ended

    @property
    def write_fd(self) -> int:
        assert self._write_fd is not None
        return self._write_fd

    def close_write_end(self) -> None:
        """Called once the child holds its own copy; EOF then comes when the child's copy closes."""
        if self._write_fd is not None:
            os.close(self._write_fd)
            self._write_fd = None

    async def __aenter__(self) -> Capture:
        assert self._read_fd is not None
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self._read_fd, self._readable)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close_write_end()
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ended.wait(), _DRAIN_SEC)
        finally:
            self._stop()

    def _readable(self) -> None:
        if self._read_fd is None:
            return
        try:
            chunk = os.read(self._read_fd, _READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._stop()
            return
        self.budget.add(chunk)
        if b"\n" in chunk:
            self.closed.set()  # the status pipe's one line: the command has finished

    def _stop(self) -> None:
        """The pipe ended (or the call is over): stop watching it, close it, wake the waiters."""
        if self._read_fd is not None:
            if self._loop is not None:
                self._loop.remove_reader(self._read_fd)
            os.close(self._read_fd)
            self._read_fd = None
        self.closed.set()
        self._ended.set()
