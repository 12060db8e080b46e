"""One kept-open session per MCP server, held by a background owner task.

Kept open rather than a session per call: a stdio server is spawned once instead of on every
call, and list-changed events need a live connection. The SDK's session is an anyio context
that must be entered and left in one task, so each server gets an owner task that holds it;
calls from any task go through that session (it multiplexes concurrent requests).

Every step is bounded by the server's `timeout`: connect + initialize + list, and each call.
A connection that is lost (the process died, the event stream ended, a call saw the transport
close) is dropped and opened again on the next call, which also refetches the tool list.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any, Final

import httpx2
import mcp_types
from mcp import Client, MCPError, StdioServerParameters
from mcp.client import Transport
from mcp.client.session import IncomingMessage, MessageHandlerFnT
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.client.subscriptions import SubscriptionLost
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from jarvis.common.logging import get_logger
from jarvis.core.mcp.config import MCPServerConfig

_log = get_logger("jarvis.mcp")

# A listing that never ends must not hang a connect (the SDK caps its own re-list the same way).
_MAX_TOOL_PAGES: Final = 100
# Slack over the SDK's own request timeout, so its clearer error normally wins.
_CALL_GRACE_SEC: Final = 1.0
# Idle limit for a response event stream (the SDK's default); a silent dead server ends there.
_STREAM_READ_TIMEOUT_SEC: Final = 300.0

ToolsListener = Callable[["MCPConnection", list[mcp_types.Tool]], None]


class MCPServerError(Exception):
    """A call or connect that failed; the message names the server."""

    def __init__(self, server: str, reason: str, *, code: int | None = None) -> None:
        super().__init__(f"MCP server {server!r}: {reason}")
        self.server = server
        self.code = code


class MCPConnection:
    """A session to one server. `on_tools` hears every fresh tool list (connect and changes)."""

    def __init__(self, config: MCPServerConfig, on_tools: ToolsListener) -> None:
        self.config = config
        # Why the last connect failed; None once connected.
        self.error: str | None = None
        self._on_tools = on_tools
        self._client: Client | None = None
        self._owner: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._tools_changed = asyncio.Event()
        self._closed = False

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def connected(self) -> bool:
        return self._client is not None and self._owner is not None and not self._owner.done()

    async def connect(self) -> list[mcp_types.Tool]:
        """(Re)open the session and list the tools; raises `MCPServerError` on failure."""
        async with self._lock:
            return await self._connect_locked()

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> mcp_types.CallToolResult:
        client = await self._live_client()
        timeout = self.config.timeout
        try:
            async with asyncio.timeout(timeout + _CALL_GRACE_SEC):
                return await client.call_tool(name, arguments, read_timeout_seconds=timeout)
        except MCPError as exc:
            if exc.code == mcp_types.CONNECTION_CLOSED:
                await self._lost(client)
            raise self._error(f"{name}: {_mcp_reason(exc, timeout)}", exc.code) from exc
        except TimeoutError as exc:
            code = mcp_types.REQUEST_TIMEOUT
            raise self._error(f"{name}: no answer within {timeout:g} s", code) from exc
        except (ValidationError, RuntimeError) as exc:
            # The answer arrived but breaks the protocol or the tool's output schema.
            raise self._error(f"{name}: invalid answer ({_describe(exc)})") from exc
        except Exception as exc:
            # A broken pipe or HTTP failure below the protocol: start afresh next time.
            await self._lost(client)
            raise self._error(f"{name}: connection lost ({_describe(exc)})") from exc

    async def aclose(self) -> None:
        self._closed = True
        await self._drop()

    async def _live_client(self) -> Client:
        if self._closed:
            raise self._error("the connection was closed")
        if not self.connected:
            async with self._lock:
                if not self.connected:
                    await self._connect_locked()
        assert self._client is not None  # connected, or _connect_locked raised
        return self._client

    async def _connect_locked(self) -> list[mcp_types.Tool]:
        if self._closed:
            raise self._error("the connection was closed")
        await self._drop()
        ready: asyncio.Future[list[mcp_types.Tool]] = asyncio.get_running_loop().create_future()
        owner = asyncio.create_task(self._own(ready), name=f"mcp-server:{self.name}")
        self._owner = owner
        waiters: set[asyncio.Future[Any]] = {ready, owner}
        try:
            await asyncio.wait(
                waiters, timeout=self.config.timeout, return_when=asyncio.FIRST_COMPLETED
            )
        except BaseException:
            await self._drop()
            raise
        if ready.done():
            tools = ready.result()
            self.error = None
            self._on_tools(self, tools)
            return tools
        reason = self._failure(owner)
        await self._drop()
        self.error = reason
        raise self._error(reason)

    def _failure(self, owner: asyncio.Task[None]) -> str:
        if not owner.done():
            return f"no answer within {self.config.timeout:g} s"
        if owner.cancelled():
            return "the connection was closed"
        exc = owner.exception()
        return (
            f"could not connect ({_describe(exc)})" if exc else "the server closed the connection"
        )

    async def _own(self, ready: asyncio.Future[list[mcp_types.Tool]]) -> None:
        try:
            async with _open_session(self.config, self._on_message) as client:
                tools = await _list_all_tools(client)
                self._client = client
                ready.set_result(tools)
                await self._watch_tools(client)
            _log.info("MCP server %r: connection ended; reopened on the next call", self.name)
        except Exception as exc:
            if not ready.done():
                raise
            _log.warning("MCP server %r: connection ended: %s", self.name, _describe(exc))
        finally:
            self._client = None

    async def _watch_tools(self, client: Client) -> None:
        """Refetch the tools whenever the server says they changed; return once the link is lost."""
        if client.protocol_version in MODERN_PROTOCOL_VERSIONS:
            # ponytail: a change between the first listing and the listen ack is only seen at
            # the next change or reconnect; closing that gap would cost a second listing.
            try:
                async with client.listen(tools_list_changed=True) as subscription:
                    async for _event in subscription:
                        self._on_tools(self, await _list_all_tools(client))
                # No replay after the stream ends: reconnect (and refetch) on the next call.
                return
            except SubscriptionLost:
                return
            except (MCPError, TimeoutError) as exc:
                _log.info("MCP server %r streams no tool changes: %s", self.name, _describe(exc))
        # Earlier protocol versions notify through the message handler instead.
        while True:
            await self._tools_changed.wait()
            self._tools_changed.clear()
            self._on_tools(self, await _list_all_tools(client))

    async def _on_message(self, message: IncomingMessage) -> None:
        if isinstance(message, mcp_types.ToolListChangedNotification):
            self._tools_changed.set()
        elif isinstance(message, Exception):
            _log.debug("MCP server %r transport: %s", self.name, _describe(message))

    async def _lost(self, client: Client) -> None:
        # Only the session that failed: another call may already have opened a new one.
        if self._client is client:
            await self._drop()

    async def _drop(self) -> None:
        """End the owner task; the SDK's shutdown (stdio: close, wait, kill) is itself bounded."""
        owner, self._owner = self._owner, None
        self._client = None
        if owner is None:
            return
        owner.cancel()
        # asyncio.wait, not `await owner`: the caller's own cancellation must still propagate.
        await asyncio.wait({owner})
        if not owner.cancelled():
            owner.exception()  # retrieved: a failed connect was already reported

    def _error(self, reason: str, code: int | None = None) -> MCPServerError:
        return MCPServerError(self.name, reason, code=code)


@contextlib.asynccontextmanager
async def _open_session(
    config: MCPServerConfig, on_message: MessageHandlerFnT
) -> AsyncIterator[Client]:
    async with contextlib.AsyncExitStack() as stack:
        client = Client(
            await _transport(config, stack),
            read_timeout_seconds=config.timeout,
            message_handler=on_message,
            # Tools are listed only on connect and on change, so a response cache adds nothing.
            cache=None,
        )
        yield await stack.enter_async_context(client)


async def _transport(
    config: MCPServerConfig, stack: contextlib.AsyncExitStack
) -> Transport | StdioServerParameters:
    if config.transport == "stdio":
        program, *args = config.command
        return StdioServerParameters(command=program, args=args, env=config.env or None)
    assert config.url is not None  # the config validator requires it
    # Response streams stay open for long, so only connect/write/pool get the short timeout.
    if config.transport == "sse":
        return sse_client(
            config.url,
            headers=config.http_headers(),
            timeout=config.timeout,
            sse_read_timeout=_STREAM_READ_TIMEOUT_SEC,
        )
    timeout = httpx2.Timeout(config.timeout, read=_STREAM_READ_TIMEOUT_SEC)
    http = await stack.enter_async_context(
        httpx2.AsyncClient(headers=config.http_headers(), timeout=timeout)
    )
    return streamable_http_client(config.url, http_client=http)


async def _list_all_tools(client: Client) -> list[mcp_types.Tool]:
    tools: list[mcp_types.Tool] = []
    cursor: str | None = None
    for _ in range(_MAX_TOOL_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            break
    return tools


def _mcp_reason(exc: MCPError, timeout: float) -> str:
    if exc.code == mcp_types.REQUEST_TIMEOUT:
        return f"no answer within {timeout:g} s"
    if exc.code == mcp_types.CONNECTION_CLOSED:
        return "connection lost; it is reopened on the next call"
    return f"{exc.message} (error {exc.code})"


def _describe(exc: BaseException) -> str:
    """The innermost cause, not the task group wrapped around it."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
