"""All configured MCP servers: connected in the background, their tools kept in the registry.

Start-up never waits: each server connects in its own task and its tools register the moment it
is ready (its status says "connecting" until then). Tools are registered as `<server>__<tool>`
(see `names.py`), so servers never hide each other or a built-in; a server may take over named
built-ins only through its `replace_builtins` setting, and the status says what it shadows.

The MCP SDK (about a quarter of a server's import time) loads with the first connection: this
module imports the modules that use it where they are needed, so a server with no MCP server
configured, and every server until one connects, starts without it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from jarvis.common.logging import get_logger
from jarvis.core.mcp.config import MCPServerConfig, check_unique_names
from jarvis.core.mcp.elicitation import ElicitationDesk
from jarvis.core.mcp.hooks import ClientHooks
from jarvis.core.mcp.names import NameTable
from jarvis.core.mcp.session_parts import MCPServerError
from jarvis.core.tools.registry import ToolRegistry

if TYPE_CHECKING:
    import mcp_types

    from jarvis.core.mcp.client import AuthFactory, MCPConnection, State
    from jarvis.core.mcp.completion import PromptInfo
    from jarvis.core.mcp.resources import ResourceCatalog
    from jarvis.core.mcp.tools import MCPTool

    # "broken": the config entry could not be read, so there is no connection at all.
    StatusState = State | Literal["broken"]

_log = get_logger("jarvis.mcp")
StatusListener = Callable[["ServerStatus"], None]


@dataclass(frozen=True)
class ToolInfo:
    name: str  # what the model calls
    own_name: str  # the server's name for it
    description: str


@dataclass(frozen=True)
class ServerStatus:
    """One server as `jarvis extensions` and the HUD show it."""

    name: str
    state: StatusState
    tools: tuple[ToolInfo, ...] = ()
    shadows: tuple[str, ...] = ()
    error: str | None = None
    log: str | None = None

    @property
    def ok(self) -> bool:
        return self.state == "connected"

    @property
    def tool_count(self) -> int:
        return len(self.tools)

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "state": self.state,
            "tools": [t.__dict__ for t in self.tools],
            "shadows": list(self.shadows),
            "error": self.error,
            "log": self.log,
        }


@dataclass(frozen=True)
class ConfigProblem:
    """A server entry that could not be read: where it is and what is wrong."""

    name: str
    where: str  # e.g. "config.yaml: mcpServers.files"
    error: str


@dataclass
class _Server:
    connection: MCPConnection
    tools: list[MCPTool] = field(default_factory=list)
    # URI templates, named in `read_resource`'s description; fetched after each connect.
    templates: list[mcp_types.ResourceTemplate] = field(default_factory=list)
    fetching: asyncio.Task[None] | None = None


class MCPManager:
    def __init__(
        self,
        registry: ToolRegistry,
        *,
        log_dir: Path | None = None,
        hooks: ClientHooks | None = None,
        auth: AuthFactory | None = None,
        on_status: StatusListener | None = None,
    ) -> None:
        self._registry = registry
        self._log_dir = log_dir
        self._hooks = hooks
        self._auth = auth
        self._listeners: list[StatusListener] = [on_status] if on_status is not None else []
        self._servers: dict[str, _Server] = {}
        self._problems: dict[str, ConfigProblem] = {}
        self._order: list[str] = []

    async def start(
        self, configs: Sequence[MCPServerConfig], problems: Sequence[ConfigProblem] = ()
    ) -> None:
        """Begin connecting every server; returns at once (see `wait_ready`)."""
        await self.apply(configs, problems)

    async def apply(
        self, configs: Sequence[MCPServerConfig], problems: Sequence[ConfigProblem] = ()
    ) -> None:
        """Reconnect changed servers, drop removed ones, start new ones; never waits for them."""
        check_unique_names(configs)
        wanted = {config.name: config for config in configs}
        self._problems = {p.name: p for p in problems if p.name not in wanted}
        self._order = [*wanted, *self._problems]
        removed = [name for name in self._servers if name not in wanted]
        await asyncio.gather(*(self._remove(name) for name in removed))
        for config in configs:
            current = self._servers.get(config.name)
            if current is None or current.connection.config != config:
                await self._replace(config)
            elif current.connection.state in ("failed", "needs_login"):
                current.connection.reconnect()

    async def wait_ready(self) -> None:
        """Until every server's first connect attempt has ended (either way)."""
        servers = list(self._servers.values())
        await asyncio.gather(*(s.connection.wait_first_attempt() for s in servers))

    def reconnect(self, name: str | None = None) -> list[str]:
        """Reconnect one server (or all); returns the names asked."""
        names = [name] if name is not None else list(self._servers)
        for each in names:
            server = self._servers.get(each)
            if server is None:
                raise KeyError(each)
            server.connection.reconnect()
        return names

    def watch(self, listener: StatusListener) -> Callable[[], None]:
        """Hear every server's status change from now on; returns the way to stop."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    @property
    def desk(self) -> ElicitationDesk | None:
        return self._hooks.desk if self._hooks is not None else None

    def connection(self, name: str) -> MCPConnection | None:
        server = self._servers.get(name)
        return server.connection if server else None

    def connections(self) -> list[MCPConnection]:
        return [self._servers[n].connection for n in self._order if n in self._servers]

    def status(self) -> list[ServerStatus]:
        out: list[ServerStatus] = []
        for name in self._order:
            if name in self._servers:
                out.append(self._status(self._servers[name]))
            elif name in self._problems:
                problem = self._problems[name]
                out.append(ServerStatus(name, "broken", error=f"{problem.where}: {problem.error}"))
        return out

    def instructions(self) -> list[tuple[str, str]]:
        """(server, instructions) of connected servers that gave any, for the system prompt."""
        return [
            (c.name, c.instructions)
            for c in self.connections()
            if c.state == "connected" and c.instructions
        ]

    async def prompts(self) -> list[PromptInfo]:
        """Every connected server's prompts, as the `/<server>:<prompt>` commands they are."""
        connections = self.connections()
        if not connections:
            return []
        from jarvis.core.mcp.completion import prompt_catalog

        return await prompt_catalog(connections)

    async def complete(
        self, server: str, prompt: str, argument: str, value: str, context: dict[str, str]
    ) -> list[str]:
        """The server's suggestions for one prompt argument; [] when it completes nothing.
        Raises KeyError for an unknown server, MCPServerError when the server fails."""
        connection = self.connection(server)
        if connection is None:
            raise KeyError(server)
        from jarvis.core.mcp.completion import complete_argument

        return await complete_argument(connection, prompt, argument, value, context)

    async def resources(self, server: str) -> ResourceCatalog:
        """One server's resources and URI templates (KeyError: no such server)."""
        connection = self.connection(server)
        if connection is None:
            raise KeyError(server)
        from jarvis.core.mcp.resources import resource_catalog

        return await resource_catalog(connection)

    async def expand_input(self, text: str) -> str:
        """`/server:prompt args` → the prompt's text; `@server:uri` → the resource attached.
        A failure becomes an error line in place of the command (the person sees why)."""
        if not text.lstrip().startswith("/") and "@" not in text:
            return text  # neither a command nor a mention (the patterns below need one)
        from jarvis.core.mcp.resources import (
            MENTION,
            PROMPT_COMMAND,
            attach_mentions,
            expand_prompt,
            list_prompts,
            prompt_arguments,
        )

        live = {c.name: c for c in self.connections() if c.state == "connected"}
        command = PROMPT_COMMAND.match(text.strip())
        if command and command.group(1) in live:
            server, name, rest = command.group(1), command.group(2), command.group(3) or ""
            connection = live[server]
            try:
                specs = {p.name: p for p in await list_prompts(connection)}
                if name not in specs:
                    return f"[MCP server {server!r} has no prompt {name!r}]"
                text = await expand_prompt(connection, name, prompt_arguments(specs[name], rest))
            except MCPServerError as exc:
                return f"[{exc}]"
        if MENTION.search(text):
            text = await attach_mentions(text, live)
        return text

    async def aclose(self) -> None:
        await asyncio.gather(*(self._remove(name) for name in list(self._servers)))
        self._order = []

    async def _replace(self, config: MCPServerConfig) -> None:
        if config.name in self._servers:
            await self._remove(config.name)
        from jarvis.core.mcp.client import MCPConnection

        log = self._log_dir / f"{config.name}.log" if self._log_dir else None
        connection = MCPConnection(
            config,
            on_tools=self._register,
            on_state=self._state_changed,
            stderr_log=log,
            hooks=self._hooks,
            auth=self._auth,
        )
        self._servers[config.name] = _Server(connection)
        connection.start()

    async def _remove(self, name: str) -> None:
        server = self._servers.pop(name)
        if server.fetching is not None:
            server.fetching.cancel()
        self._registry.replace_layer("mcp", [], owner=name)
        self._registry.hide_builtins(name, ())
        await server.connection.aclose()
        self._publish_resource_tool()

    def _register(self, connection: MCPConnection, specs: list[mcp_types.Tool]) -> None:
        """Called on every fresh tool list: a connect, a reconnect or a list-changed event."""
        from jarvis.core.mcp.resources import offers_resources
        from jarvis.core.mcp.tools import MCPTool

        server = self._servers.get(connection.name)
        if server is None or server.connection is not connection:
            return  # a replaced connection's late news
        # Task-augmented execution is not implemented: a tool that requires it is not offered.
        specs = [spec for spec in specs if not _needs_tasks(spec)]
        table = NameTable(connection.name, [spec.name for spec in specs])
        server.tools = [MCPTool(connection, spec, table.exposed(spec.name)) for spec in specs]
        self._registry.replace_layer("mcp", server.tools, owner=connection.name)
        self._registry.hide_builtins(connection.name, self._shadows(server))
        self._state_changed(connection)
        self._publish_resource_tool()
        if offers_resources(connection) and server.fetching is None:
            server.fetching = asyncio.create_task(self._fetch_templates(server))

    async def _fetch_templates(self, server: _Server) -> None:
        from jarvis.core.mcp.resources import list_resource_templates

        try:
            server.templates = await list_resource_templates(server.connection)
        except MCPServerError:
            server.templates = []  # a server without templates answers "method not found"
        finally:
            server.fetching = None
        self._publish_resource_tool()

    def _publish_resource_tool(self) -> None:
        """`read_resource` exists while some connected server offers resources."""
        if not self._servers:
            self._registry.replace_layer("mcp", [], owner="")
            return
        from jarvis.core.mcp.resources import ReadResourceTool, offers_resources

        offering = {c.name: c for c in self.connections() if offers_resources(c)}
        templates = {name: self._servers[name].templates for name in offering}
        tools = [ReadResourceTool(offering, templates)] if offering else []
        self._registry.replace_layer("mcp", tools, owner="")

    def _shadows(self, server: _Server) -> tuple[str, ...]:
        wanted = set(server.connection.config.replace_builtins)
        return tuple(sorted({tool.own_name for tool in server.tools} & wanted))

    def _state_changed(self, connection: MCPConnection) -> None:
        server = self._servers.get(connection.name)
        if server is None or server.connection is not connection:
            return
        if connection.state != "connected":
            self._publish_resource_tool()
        if connection.state in ("failed", "needs_login") and connection.error:
            _log.warning("MCP server %r: %s", connection.name, connection.error)
        status = self._status(server)
        for listener in list(self._listeners):
            listener(status)

    def _status(self, server: _Server) -> ServerStatus:
        connection = server.connection
        tools = tuple(ToolInfo(t.name, t.own_name, t.summary) for t in server.tools)
        log = str(connection.stderr_log) if connection.stderr_log else None
        return ServerStatus(
            connection.name, connection.state, tools, self._shadows(server), connection.error, log
        )


def _needs_tasks(spec: mcp_types.Tool) -> bool:
    return spec.execution is not None and spec.execution.task_support == "required"
