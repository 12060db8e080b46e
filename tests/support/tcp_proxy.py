"""A TCP proxy a test can cut and restore: the network between Jarvis and PostgreSQL failing.

`cut()` drops every open connection and refuses new ones (the port stops listening); `restore()`
listens again on the same port. It runs its own event loop in a thread, so it keeps working
while the code under test blocks or crashes.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

from tests.support.ports import free_port


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.connections = 0  # accepted so far
        self._cuts = 0

    def start(self) -> None:
        self._thread.start()
        self._call(self._listen())

    def stop(self) -> None:
        self._call(self._close())
        self._call(self._cancel_pipes())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    async def _cancel_pipes(self) -> None:
        current = asyncio.current_task()
        pipes = [task for task in asyncio.all_tasks() if task is not current]
        for task in pipes:
            task.cancel()
        await asyncio.gather(*pipes, return_exceptions=True)

    def cut(self) -> None:
        """Every open connection reset, and nothing listening until `restore()`."""
        self._call(self._close())

    def restore(self) -> None:
        self._call(self._listen())

    def _call(self, work: asyncio.Future[None] | asyncio.Task[None] | object) -> None:
        future = asyncio.run_coroutine_threadsafe(work, self._loop)  # type: ignore[arg-type]
        future.result(10)

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(
            self._serve, "127.0.0.1", self.port, reuse_address=True
        )

    async def _close(self) -> None:
        self._cuts += 1
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._writers):
            transport = writer.transport
            if isinstance(transport, asyncio.Transport):
                transport.abort()  # an RST, like a dropped network path
        self._writers.clear()

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        self.connections += 1
        if self._server is None:  # accepted just before a cut, handled just after it
            client_w.transport.abort()
            return
        self._writers.add(client_w)
        cuts = self._cuts
        try:
            server_r, server_w = await asyncio.open_connection(*self.target)
        except OSError:
            client_w.transport.abort()
            return
        if cuts != self._cuts:  # cut while we were connecting: this path is gone too
            for writer in (client_w, server_w):
                writer.transport.abort()
            return
        self._writers.add(server_w)
        with contextlib.suppress(asyncio.CancelledError):  # stop() cancels every pipe
            await asyncio.gather(
                _pipe(client_r, server_w), _pipe(server_r, client_w), return_exceptions=True
            )
        for writer in (client_w, server_w):
            self._writers.discard(writer)
            writer.transport.abort()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError, ConnectionError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.transport.abort()


@contextmanager
def tcp_proxy(target_host: str, target_port: int) -> Iterator[TcpProxy]:
    proxy = TcpProxy(target_host, target_port)
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.stop()


def through(proxy: TcpProxy, dsn: str) -> str:
    """The DSN with its host and port replaced by the proxy's."""
    parts = urlsplit(dsn)
    user = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
    netloc = f"{user}127.0.0.1:{proxy.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
