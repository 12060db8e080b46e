"""Opening one MCP session: the transport for a config, what the HTTP layer saw, stderr to a log.

The SDK reports HTTP failures as generic JSON-RPC errors ("Server returned an error response"),
so the HTTP transport under it records what actually happened: a 401 (the user must sign in),
a 404 on a known session (the server restarted: re-initialize) and requests that never reached
the server (a refused connection), which are safe to send again.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TextIO

import anyio
import httpx2
import mcp_types
from mcp import Client, StdioServerParameters
from mcp.client import Transport
from mcp.client._transport import ReadStream, TransportStreams
from mcp.client.session import ElicitationFnT, ListRootsFnT, MessageHandlerFnT, SamplingFnT
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.message import SessionMessage

from jarvis import __version__
from jarvis.core.mcp.config import MCPServerConfig
from jarvis.core.mcp.hooks import Confine

# Idle limit for a response event stream (the SDK's default); a silent dead server ends there.
STREAM_READ_TIMEOUT_SEC: Final = 300.0
_START_MARK: Final = "--- jarvis started the server"
CLIENT_INFO: Final = mcp_types.Implementation(name="jarvis", title="Jarvis", version=__version__)


@dataclass
class HttpRecord:
    """What the HTTP layer saw since the connection opened (counters: calls compare them)."""

    unauthorized: int = 0
    stale_session: int = 0
    undelivered: int = 0
    last_status: int | None = None


@dataclass(frozen=True)
class SessionCallbacks:
    """One connection's answers to server requests (built from `ClientHooks` per server)."""

    elicitation: ElicitationFnT | None = None
    sampling: SamplingFnT | None = None
    roots: ListRootsFnT | None = None
    confine: Confine | None = None


class _RecordingTransport(httpx2.AsyncHTTPTransport):
    def __init__(self, record: HttpRecord, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._record = record

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        try:
            response = await super().handle_async_request(request)
        except httpx2.ConnectError:
            self._record.undelivered += 1
            raise
        status = response.status_code
        self._record.last_status = status
        if status == 401:
            self._record.unauthorized += 1
        elif status in (400, 404) and request.headers.get("mcp-session-id"):
            return await self._session_refused(request, response)
        return response

    async def _session_refused(
        self, request: httpx2.Request, response: httpx2.Response
    ) -> httpx2.Response:
        """404 is the spec's "unknown session"; the TypeScript SDK's servers answer 400 with a
        "No valid session ID" body instead, so that counts too. The body is small: read it and
        hand on an equal response."""
        body = await response.aread()
        await response.aclose()
        if response.status_code == 404 or b"session" in body.lower():
            self._record.stale_session += 1
        return httpx2.Response(
            response.status_code, headers=response.headers, content=body, request=request
        )


class _EndSignallingReadStream:
    """A transport's incoming stream that sets `ended` when it ends (EOF, closed).

    The SDK's session notices the end (its dispatcher stops) but offers nothing to wait on; a
    handshake-era session has no `listen` stream either. This is the moment a stdio process
    died or an SSE stream broke, so the connection can reconnect at once."""

    def __init__(self, inner: ReadStream[SessionMessage | Exception], ended: asyncio.Event):
        self._inner = inner
        self._ended = ended

    @property
    def last_context(self) -> Any:  # the sender's contextvars, which the dispatcher reads
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        try:
            return await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            self._ended.set()
            raise

    async def aclose(self) -> None:
        self._ended.set()
        await self._inner.aclose()

    def __aiter__(self) -> _EndSignallingReadStream:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _EndSignallingReadStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


@contextlib.asynccontextmanager
async def _signalling_end(
    transport: Transport, ended: asyncio.Event
) -> AsyncIterator[TransportStreams]:
    async with transport as (read, write):
        yield _EndSignallingReadStream(read, ended), write


@contextlib.asynccontextmanager
async def open_session(
    config: MCPServerConfig,
    *,
    on_message: MessageHandlerFnT,
    record: HttpRecord,
    stderr_log: Path | None,
    hooks: SessionCallbacks,
    auth: httpx2.Auth | None = None,
    stream_ended: asyncio.Event | None = None,
) -> AsyncIterator[Client]:
    """A session on `config`'s transport; `stream_ended` is set when the link ends."""
    async with contextlib.AsyncExitStack() as stack:
        transport = await _transport(config, stack, record, stderr_log, auth, hooks.confine)
        if stream_ended is not None:
            transport = _signalling_end(transport, stream_ended)
        client = Client(
            transport,
            # Calls keep their own clock (progress restarts it), so the SDK waits without one.
            read_timeout_seconds=None,
            message_handler=on_message,
            client_info=CLIENT_INFO,
            elicitation_callback=hooks.elicitation,
            sampling_callback=hooks.sampling,
            list_roots_callback=hooks.roots,
            # Lists are fetched on connect and on change, so a response cache adds nothing.
            cache=None,
        )
        yield await stack.enter_async_context(client)


async def _transport(
    config: MCPServerConfig,
    stack: contextlib.AsyncExitStack,
    record: HttpRecord,
    stderr_log: Path | None,
    auth: httpx2.Auth | None,
    confine: Confine | None = None,
) -> Transport:
    if config.transport == "stdio":
        argv = list(config.command)
        if confine is not None:
            argv = confine(argv, config.network, config.writable)
        program, *args = argv
        params = StdioServerParameters(command=program, args=args, env=config.env or None)
        # Server stderr goes to its own log, never onto the terminal the chat runs in.
        errlog = stack.enter_context(_open_log(stderr_log))
        return stdio_client(params, errlog=errlog)
    assert config.url is not None  # the config validator requires it
    headers = config.http_headers()
    if config.transport == "sse":

        def factory(
            headers: dict[str, str] | None = None,
            timeout: httpx2.Timeout | None = None,
            auth: httpx2.Auth | None = None,
        ) -> httpx2.AsyncClient:
            return _http_client(record, headers, timeout, auth)

        return sse_client(
            config.url,
            headers=headers,
            timeout=config.connect_timeout,
            sse_read_timeout=STREAM_READ_TIMEOUT_SEC,
            httpx_client_factory=factory,
            auth=auth,
        )
    # Response streams stay open for long, so only connect/write/pool get the short timeout.
    timeout = httpx2.Timeout(config.connect_timeout, read=STREAM_READ_TIMEOUT_SEC)
    http = await stack.enter_async_context(_http_client(record, headers, timeout, auth))
    return streamable_http_client(config.url, http_client=http)


def _http_client(
    record: HttpRecord,
    headers: dict[str, str] | None,
    timeout: httpx2.Timeout | None,
    auth: httpx2.Auth | None,
) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(
        headers=headers,
        timeout=timeout,
        auth=auth,
        follow_redirects=True,
        transport=_RecordingTransport(record),
    )


def _open_log(path: Path | None) -> TextIO:
    if path is None:
        return open(os.devnull, "w", encoding="utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.open("a", encoding="utf-8", errors="replace")
    handle.write(f"{_START_MARK} {time.strftime('%Y-%m-%dT%H:%M:%S')}\n")
    handle.flush()
    return handle


def log_tail(path: Path | None, lines: int = 3) -> str:
    """The last lines a server wrote to stderr: often the real reason it would not start."""
    if path is None or not path.is_file():
        return ""
    with contextlib.suppress(OSError):
        with path.open("rb") as handle:
            handle.seek(max(0, path.stat().st_size - 4096))
            text = handle.read().decode("utf-8", "replace")
        text = text.rsplit(_START_MARK, 1)[-1].split("\n", 1)[-1]  # this start only
        shown = [line.strip() for line in text.splitlines() if line.strip()][-lines:]
        return " | ".join(shown)
    return ""
