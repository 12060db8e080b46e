"""uvicorn's server without its tenth-of-a-second tick, so an idle `jarvis serve` sleeps.

uvicorn's `main_loop` wakes ten times a second to see whether it should stop and, once a
second, to make the Date header every response carries. Here the loop waits until stopping is
asked (a signal, or code setting `should_exit`), and the Date header is made when a response
reads it in a new second. A limit on requests or a notify callback (neither used by Jarvis)
keeps uvicorn's own loop, which checks them on its tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from email.utils import formatdate

import uvicorn
from uvicorn.server import ServerState


class LazyDateState(ServerState):
    """`default_headers` (Date, then the configured ones) made when read in a new second."""

    def __init__(self, config: uvicorn.Config, clock: Callable[[], float] = time.time) -> None:
        self._config = config
        self._clock = clock
        self._second = -1
        self._headers: list[tuple[bytes, bytes]] = []
        super().__init__()

    @property  # a plain attribute in uvicorn, made on read here
    def default_headers(self) -> list[tuple[bytes, bytes]]:
        now = self._clock()
        if int(now) != self._second:
            self._second = int(now)
            date = [(b"date", formatdate(now, usegmt=True).encode())]
            extra = self._config.encoded_headers  # set when the config loads, before serving
            self._headers = (date if self._config.date_header else []) + extra
        return self._headers

    @default_headers.setter
    def default_headers(self, value: list[tuple[bytes, bytes]]) -> None:
        """uvicorn's tick assigns what the getter makes anyway."""


class QuietServer(uvicorn.Server):
    _loop: asyncio.AbstractEventLoop | None = None
    _stop: asyncio.Event | None = None
    _should_exit = False

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.server_state = LazyDateState(config)

    @property  # a plain attribute in uvicorn; setting it wakes the loop
    def should_exit(self) -> bool:
        return self._should_exit

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        self._should_exit = value
        if value and self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to wake
                self._loop.call_soon_threadsafe(self._stop.set)

    async def main_loop(self) -> None:
        if self.config.limit_max_requests is not None or self.config.callback_notify is not None:
            await super().main_loop()
            return
        self._stop = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        with _signals_wake(self._loop):
            if not self.should_exit:
                await self._stop.wait()


@contextlib.contextmanager
def _signals_wake(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """A signal wakes the loop's selector, whichever thread the OS gave it to: uvicorn's
    handler (which sets `should_exit`) runs on the main thread, which may be asleep in the
    selector with nothing else due (uvicorn's tick used to wake it)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # uvicorn installs no signal handlers off the main thread either
        return
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)

    def drain() -> None:
        with contextlib.suppress(OSError):
            reader.recv(4096)

    loop.add_reader(reader.fileno(), drain)
    before = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    try:
        yield
    finally:
        signal.set_wakeup_fd(before)
        loop.remove_reader(reader.fileno())
        reader.close()
        writer.close()


def serve(config: uvicorn.Config) -> bool:
    """Run one server process as `uvicorn.run` does for one worker; whether it started."""
    server = QuietServer(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return server.started
