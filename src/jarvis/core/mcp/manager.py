"""All configured MCP servers: connected concurrently, their tools kept in the registry."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

import mcp_types

from jarvis.common.logging import get_logger
from jarvis.core.mcp.client import MCPConnection, MCPServerError
from jarvis.core.mcp.config import MCPServerConfig, check_unique_names
from jarvis.core.mcp.tools import MCPTool
from jarvis.core.tools.registry import ToolRegistry

_log = get_logger("jarvis.mcp")


@dataclass(frozen=True)
class ServerStatus:
    """One server as `jarvis extensions` and the HUD show it."""

    name: str
    ok: bool
    tool_count: int
    error: str | None = None


class MCPManager:
    """Connects servers, registers their tools, follows config changes.

    A server that fails or times out is skipped and reported in `status()`; it never holds up
    the others, whose tools register as soon as each one is connected. When two servers expose
    one tool name, the server later in the configuration wins.
    """

    def __init__(self, registry: ToolRegistry) -> None:
        self._registry = registry
        self._connections: dict[str, MCPConnection] = {}
        self._tools: dict[str, list[MCPTool]] = {}
        # Config order, which decides who wins a shared tool name.
        self._order: list[str] = []

    async def start(self, configs: Sequence[MCPServerConfig]) -> None:
        """Connect every server at once; returns when each is connected or given up on."""
        await self.apply(configs)

    async def apply(self, configs: Sequence[MCPServerConfig]) -> None:
        """Reconnect changed (or failed) servers, drop removed ones, add new ones."""
        check_unique_names(configs)
        wanted = {config.name: config for config in configs}
        self._order = list(wanted)
        removed = [name for name in self._connections if name not in wanted]
        todo = [config for config in configs if self._needs_connect(config)]
        await asyncio.gather(
            *(self._remove(name) for name in removed), *(self._connect(config) for config in todo)
        )
        self._publish()

    def status(self) -> list[ServerStatus]:
        return [
            self._status(self._connections[name])
            for name in self._order
            if name in self._connections
        ]

    async def aclose(self) -> None:
        await asyncio.gather(*(self._remove(name) for name in list(self._connections)))
        self._order = []

    def _needs_connect(self, config: MCPServerConfig) -> bool:
        current = self._connections.get(config.name)
        return current is None or current.config != config or current.error is not None

    async def _connect(self, config: MCPServerConfig) -> None:
        old = self._connections.pop(config.name, None)
        if old is not None:
            await old.aclose()
        self._tools.pop(config.name, None)
        connection = MCPConnection(config, on_tools=self._register)
        self._connections[config.name] = connection
        try:
            await connection.connect()
        except MCPServerError as exc:
            _log.warning("%s; its tools are skipped", exc)
            self._publish()

    async def _remove(self, name: str) -> None:
        connection = self._connections.pop(name)
        self._tools.pop(name, None)
        await connection.aclose()
        self._registry.replace_layer("mcp", [], owner=name)

    def _register(self, connection: MCPConnection, tools: list[mcp_types.Tool]) -> None:
        """Called on every fresh tool list: a connect, a reconnect or a list-changed event."""
        if self._connections.get(connection.name) is not connection:
            return  # a replaced connection's late news
        self._tools[connection.name] = [MCPTool(connection, spec) for spec in tools]
        self._publish()

    def _publish(self) -> None:
        """Each server's tools, less the names a later server claims."""
        claimed: set[str] = set()
        for name in reversed(self._order):
            tools = self._tools.get(name, [])
            visible = [tool for tool in tools if tool.name not in claimed]
            shadowed = sorted({tool.name for tool in tools} & claimed)
            if shadowed:
                _log.warning("MCP server %r: %s hidden by a later server", name, shadowed)
            claimed.update(tool.name for tool in tools)
            self._registry.replace_layer("mcp", visible, owner=name)

    def _status(self, connection: MCPConnection) -> ServerStatus:
        count = len(self._tools.get(connection.name, []))
        return ServerStatus(connection.name, connection.error is None, count, connection.error)
