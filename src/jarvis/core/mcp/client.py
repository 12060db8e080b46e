"""One MCP server's connection: opened in the background, watched, healed.

A supervisor task per server owns the SDK session (an anyio context that must be entered and
left in one task) and runs the life cycle: connect (bounded by `connect_timeout`), then watch
the link until it dies, then reconnect with backoff, forever. Start-up never waits for it; the
tools appear when it connects. Death is noticed when it happens, not at the next call: a modern
session's `listen` stream ends, and on any session the transport's incoming stream ends.

Calls wait for a connection (a call while reconnecting asks for an attempt at once). A call
that never reached the server (refused connection, a 404 on a stale `Mcp-Session-Id` after the
server restarted) is sent once more on a fresh session; one lost mid-way is resent only when
the tool is read-only. A call's clock (`call_timeout`) restarts with every progress report.
What the server itself asks (sampling, elicitation, roots, tool-list changes) is answered in
`server_requests.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final, Literal, TypeVar

import anyio
import httpx2
import mcp_types
from mcp import Client, MCPError
from pydantic import ValidationError

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.common.logging import get_logger
from jarvis.core.mcp.call_order import CallOrder
from jarvis.core.mcp.config import MCPServerConfig
from jarvis.core.mcp.hooks import ClientHooks
from jarvis.core.mcp.server_requests import ServerRequests
from jarvis.core.mcp.session_parts import (
    MCPServerError,
    describe,
    dispatcher_closed,
    list_all_tools,
    login_hint,
    until_dispatcher_closed,
    within,
)
from jarvis.core.mcp.transport import HttpRecord, log_tail, open_session

_log = get_logger("jarvis.mcp")
_T = TypeVar("_T")

State = Literal["connecting", "connected", "reconnecting", "failed", "needs_login", "closed"]
ToolsListener = Callable[["MCPConnection", list[mcp_types.Tool]], None]
StateListener = Callable[["MCPConnection"], None]
ProgressListener = Callable[[float, float | None, str | None], None]
AuthFactory = Callable[[MCPServerConfig], httpx2.Auth | None]

# Backoff between attempts: quick at first (a restart takes a second or two), then patient.
_BACKOFF_SEC: Final = (0.1, 0.25, 0.5, 1.0, 1.0, 1.0, 2.0, 5.0, 10.0, 30.0)
_CLOSE_WAIT_SEC: Final = 5.0


class _Undelivered(Exception):
    """The request never reached the server: safe to send again."""


class MCPConnection:
    """A healing session to one server; `on_tools` hears every fresh tool list."""

    def __init__(
        self,
        config: MCPServerConfig,
        on_tools: ToolsListener,
        *,
        on_state: StateListener | None = None,
        stderr_log: Path | None = None,
        hooks: ClientHooks | None = None,
        auth: AuthFactory | None = None,
    ) -> None:
        self.config = config
        self.state: State = "connecting"
        self.error: str | None = None
        self.instructions: str | None = None
        self.stderr_log = stderr_log
        # Read-only calls share; others to one server go one at a time, in order (tools.py).
        self.order = CallOrder()
        self._on_tools = on_tools
        self._on_state = on_state
        self.requests = ServerRequests(config.name, hooks or ClientHooks(), self._publish_tools)
        self._auth = auth
        self._client: Client | None = None
        self._record = HttpRecord()
        self._supervisor: asyncio.Task[None] | None = None
        self._scope: anyio.CancelScope | None = None  # the supervisor's, once it runs
        self._changed = asyncio.Condition()
        self._wake = asyncio.Event()  # connect now (a call waits, or a reconnect was asked)
        self._restart = asyncio.Event()  # drop the live session and connect afresh
        self._attempts = 0  # finished connect attempts, for `wait_first_attempt`

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def client(self) -> Client | None:
        return self._client

    @property
    def active_calls(self) -> list[ToolCallContext]:
        """The tool calls in flight (`server_requests.py`: a server's request belongs to one)."""
        return self.requests.active_calls

    def _publish_tools(self, tools: list[mcp_types.Tool]) -> None:
        self._on_tools(self, tools)

    def start(self) -> None:
        if self._supervisor is None:
            self._supervisor = asyncio.create_task(self._supervise(), name=f"mcp:{self.name}")

    async def wait_first_attempt(self) -> None:
        """Until the first connect attempt has succeeded or failed (tests, `jarvis extensions`)."""
        async with self._changed:
            await self._changed.wait_for(lambda: self._attempts > 0 or self.state == "closed")

    def reconnect(self) -> None:
        """Drop the session (if any) and connect at once, backoff reset."""
        self._restart.set()
        self._wake.set()

    async def aclose(self) -> None:
        supervisor, self._supervisor = self._supervisor, None
        if supervisor is not None:
            # Through anyio: the SDK shields its teardown from anyio's cancellation only (a
            # native `Task.cancel()` aborts it; the process and this task then never end). Yet a
            # server that never answers must not hold a shutdown (or a config reload) hostage.
            (self._scope.cancel if self._scope is not None else supervisor.cancel)()
            done, _ = await asyncio.wait({supervisor}, timeout=_CLOSE_WAIT_SEC)
            if not done:
                _log.warning("MCP server %r: still closing; left to finish alone", self.name)
        self._client = None
        await self._set_state("closed", self.error)

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        *,
        limit_sec: float,
        on_progress: ProgressListener | None = None,
        retry_undelivered: bool = True,
        retry_lost: bool = False,
    ) -> mcp_types.CallToolResult:
        progressed = asyncio.Event()

        async def report(progress: float, total: float | None, message: str | None) -> None:
            progressed.set()
            if on_progress is not None:
                on_progress(progress, total, message)

        def send(client: Client) -> Awaitable[mcp_types.CallToolResult]:
            return client.call_tool(name, arguments, progress_callback=report)

        return await self.request(
            name,
            send,
            limit_sec=limit_sec,
            progressed=progressed,
            retry_undelivered=retry_undelivered,
            retry_lost=retry_lost,
        )

    async def request(
        self,
        what: str,
        send: Callable[[Client], Awaitable[_T]],
        *,
        limit_sec: float,
        progressed: asyncio.Event | None = None,
        retry_undelivered: bool = True,
        retry_lost: bool = False,
    ) -> _T:
        """One request on a live session, healed once if the session turned out dead."""
        for attempt in (1, 2):
            client = await self._live_client()
            try:
                return await self._send(client, what, send, limit_sec, progressed)
            except _Undelivered as exc:
                self._lost(client)
                if attempt == 2 or not retry_undelivered:
                    raise self._error(f"{what}: {exc}", mcp_types.CONNECTION_CLOSED) from exc
            except MCPServerError as exc:
                if exc.code != mcp_types.CONNECTION_CLOSED or attempt == 2 or not retry_lost:
                    raise
        raise AssertionError("unreachable")

    async def _send(
        self,
        client: Client,
        what: str,
        send: Callable[[Client], Awaitable[_T]],
        limit_sec: float,
        progressed: asyncio.Event | None,
    ) -> _T:
        record = self._record
        before = (record.undelivered, record.stale_session, record.unauthorized)
        try:
            return await within(send(client), limit_sec, progressed)
        except TimeoutError as exc:
            code = mcp_types.REQUEST_TIMEOUT
            raise self._error(f"{what}: no answer within {limit_sec:g} s", code) from exc
        except (ValidationError, RuntimeError) as exc:
            # The answer arrived but breaks the protocol or the tool's output schema.
            raise self._error(f"{what}: invalid answer ({describe(exc)})") from exc
        except Exception as exc:
            after = (record.undelivered, record.stale_session, record.unauthorized)
            if after[2] > before[2]:
                self._lost(client)
                raise self._error(f"{what}: {login_hint(self.name)}", 401) from exc
            if after[0] > before[0] or after[1] > before[1]:
                raise _Undelivered(describe(exc)) from exc
            if isinstance(exc, MCPError) and exc.code != mcp_types.CONNECTION_CLOSED:
                raise self._error(f"{what}: {exc.message} (error {exc.code})", exc.code) from exc
            self._lost(client)
            reason = f"{what}: connection lost ({describe(exc)}); reconnecting"
            raise self._error(reason, mcp_types.CONNECTION_CLOSED) from exc

    async def _live_client(self) -> Client:
        """The live session, or wait for the next connect attempt (asking for it now)."""
        deadline = asyncio.get_running_loop().time() + self.config.connect_timeout
        async with self._changed:
            while self._client is None or dispatcher_closed(self._client):
                if self.state == "closed":
                    raise self._error("the connection was closed")
                if self._client is not None:
                    self._lost(self._client)
                self._wake.set()
                left = deadline - asyncio.get_running_loop().time()
                attempts = self._attempts

                def settled(before: int = attempts) -> bool:
                    return self._client is not None or self._attempts > before

                try:
                    async with asyncio.timeout(max(left, 0)):
                        await self._changed.wait_for(settled)
                except TimeoutError:
                    raise self._error(self._not_ready_reason()) from None
                if self._client is None and self._attempts > attempts:
                    raise self._error(self.error or "could not connect")
            return self._client

    def _not_ready_reason(self) -> str:
        if self.error:
            return self.error
        return f"not connected within {self.config.connect_timeout:g} s"

    async def _supervise(self) -> None:
        failures = 0
        with anyio.CancelScope() as self._scope:
            while True:
                self._wake.clear()
                self._restart.clear()
                lived = await self._run_once()
                failures = 0 if lived else failures + 1
                if self.state == "needs_login":
                    await self._wake.wait()  # only `jarvis mcp login` or a reconnect helps
                    continue
                delay = 0.0 if lived else _BACKOFF_SEC[min(failures - 1, len(_BACKOFF_SEC) - 1)]
                with anyio.move_on_after(delay):
                    await self._wake.wait()

    async def _run_once(self) -> bool:
        """Connect and serve until the link dies; True if it was connected for a while."""
        self._record = HttpRecord()
        auth = self._auth(self.config) if self._auth is not None else None
        stream_ended = asyncio.Event()
        connected = False
        # An anyio deadline, like the cancel in `aclose` (a native one aborts the SDK's teardown).
        connecting = anyio.CancelScope(deadline=anyio.current_time() + self.config.connect_timeout)
        try:
            with connecting:
                async with contextlib.AsyncExitStack() as stack:
                    client = await stack.enter_async_context(
                        open_session(
                            self.config,
                            on_message=self.requests.on_message,
                            record=self._record,
                            stderr_log=self.stderr_log,
                            hooks=self.requests.callbacks(),
                            auth=auth,
                            stream_ended=stream_ended,
                        )
                    )
                    tools = await list_all_tools(client)
                    connecting.deadline = math.inf  # connected: the session lives on
                    self.instructions = client.instructions
                    self._client, connected = client, True
                    self._on_tools(self, tools)
                    await self._set_state("connected", None, attempted=True)
                    await self._watch(client, stream_ended, tools)
                    self._client = None  # before the session closes: nobody may pick it up now
            if connecting.cancelled_caught:
                raise TimeoutError
            _log.info("MCP server %r: connection ended; reconnecting", self.name)
            await self._set_state("reconnecting", "connection lost; reconnecting")
            return True
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._client = None
            await self._set_state(*self._failure(exc, connected), attempted=not connected)
            return connected
        finally:
            self._client = None

    def _failure(self, exc: BaseException, connected: bool) -> tuple[State, str]:
        if self._record.unauthorized:
            return "needs_login", login_hint(self.name)
        if connected:
            return "reconnecting", f"connection lost ({describe(exc)}); reconnecting"
        if isinstance(exc, TimeoutError):
            reason = f"no answer within {self.config.connect_timeout:g} s"
        else:
            reason = f"could not connect ({describe(exc)})"
        said = log_tail(self.stderr_log)
        return "failed", f"{reason}; stderr: {said}" if said else reason

    async def _watch(
        self, client: Client, stream_ended: asyncio.Event, listed: list[mcp_types.Tool]
    ) -> None:
        """Return when the link dies, a restart is asked, or forever while it lives."""
        watchers = [
            asyncio.create_task(self._restart.wait()),
            asyncio.create_task(self.requests.watch_tools(client, listed)),
            asyncio.create_task(stream_ended.wait()),  # the process died, the stream broke
            # A dispatcher stopped some other way (rare): a flag read now and then.
            asyncio.create_task(until_dispatcher_closed(client)),
        ]
        try:
            await asyncio.wait(watchers, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in watchers:
                task.cancel()
            await asyncio.wait(watchers)

    def _lost(self, client: Client) -> None:
        # Only the session that failed: another call may already have opened a new one.
        if self._client is client:
            self._client = None  # no call may take it while the supervisor tears it down
            self._restart.set()
            self._wake.set()

    async def _set_state(self, state: State, error: str | None, *, attempted: bool = False) -> None:
        async with self._changed:
            self.state, self.error = state, error
            self._attempts += attempted
            self._changed.notify_all()
        if self._on_state is not None:
            self._on_state(self)

    def _error(self, reason: str, code: int | None = None) -> MCPServerError:
        return MCPServerError(self.name, reason, code=code)
