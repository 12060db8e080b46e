"""What an MCP server asks of this client while a session lives (`client.py` owns the session).

A server may send requests of its own: sampling (a model call on the person's behalf, approved
by the host's sampler), elicitation (a question asked in the windows of the session whose tool
call is running; none running: declined), roots (the host's answer), and notifications that its
tool list changed. Such a request during a tool call belongs to that call's session: the calls
in flight are kept here, newest last.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import mcp_types
from mcp import Client, MCPError
from mcp.client.session import ClientRequestContext, IncomingMessage
from mcp.client.subscriptions import SubscriptionLost
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.common.logging import get_logger
from jarvis.core.mcp.hooks import ClientHooks
from jarvis.core.mcp.session_parts import describe, list_all_tools
from jarvis.core.mcp.transport import SessionCallbacks

_log = get_logger("jarvis.mcp")

ToolsPublisher = Callable[[list[mcp_types.Tool]], None]


class ServerRequests:
    """One server's requests to the client: sampling, elicitation, roots, tool-list changes."""

    def __init__(self, server: str, hooks: ClientHooks, publish_tools: ToolsPublisher) -> None:
        self.server = server
        self.hooks = hooks
        self.publish_tools = publish_tools
        # Contexts of the calls in flight: a server request during a call belongs to its session.
        self.active_calls: list[ToolCallContext] = []
        self.tools_changed = asyncio.Event()

    def callbacks(self) -> SessionCallbacks:
        hooks = self.hooks
        return SessionCallbacks(
            elicitation=self.elicit if hooks.desk is not None else None,
            sampling=self.sample if hooks.sampler is not None else None,
            roots=hooks.roots,
            confine=hooks.confine,
        )

    def _call(self) -> ToolCallContext | None:
        return self.active_calls[-1] if self.active_calls else None

    async def sample(
        self, context: ClientRequestContext, params: mcp_types.CreateMessageRequestParams
    ) -> mcp_types.CreateMessageResult | mcp_types.ErrorData:
        assert self.hooks.sampler is not None  # only declared with one
        return await self.hooks.sampler(self.server, params, self._call())

    async def elicit(
        self, context: ClientRequestContext, params: mcp_types.ElicitRequestParams
    ) -> mcp_types.ElicitResult:
        """Asked in the windows of the session whose call is running; none: declined."""
        call = self._call()
        desk = self.hooks.desk
        if desk is None or call is None or call.emit is None:
            return mcp_types.ElicitResult(action="decline")
        is_form = isinstance(params, mcp_types.ElicitRequestFormParams)
        answer = await desk.ask(
            session_id=call.session_id,
            server=self.server,
            message=params.message,
            schema=params.requested_schema if is_form else None,  # type: ignore[union-attr]
            url=None if is_form else params.url,  # type: ignore[union-attr]
            emit=call.emit,
        )
        return mcp_types.ElicitResult(action=answer.action, content=answer.content)

    async def on_message(self, message: IncomingMessage) -> None:
        if isinstance(message, mcp_types.ToolListChangedNotification):
            self.tools_changed.set()
        elif isinstance(message, Exception):
            _log.debug("MCP server %r transport: %s", self.server, describe(message))

    async def watch_tools(self, client: Client, listed: list[mcp_types.Tool]) -> None:
        """Refetch the tools whenever the server says they changed; return once the link is lost."""
        if client.protocol_version in MODERN_PROTOCOL_VERSIONS:
            try:
                async with client.listen(tools_list_changed=True) as subscription:
                    # A change before the ack is not replayed: look again, now it would be heard.
                    if (latest := await list_all_tools(client)) != listed:
                        self.publish_tools(latest)
                    async for _event in subscription:
                        self.publish_tools(await list_all_tools(client))
                return
            except SubscriptionLost:
                return
            except (MCPError, TimeoutError) as exc:
                _log.info("MCP server %r streams no tool changes: %s", self.server, describe(exc))
        # Earlier protocol versions notify through the message handler instead.
        while True:
            await self.tools_changed.wait()
            self.tools_changed.clear()
            self.publish_tools(await list_all_tools(client))
