"""An MCP server's tool as a Jarvis tool.

The model sees `<server>__<tool>` (see `names.py`): two instances of one server never hide each
other, a server tool named `bash` never takes the place of (or is judged as) the shell, and
rules are keyed by that name, i.e. by server + tool. The description says where the tool comes
from. Approval fails closed: only tools listed in the server's `auto_approve` skip asking.

Annotations are hints the server gives: `destructiveHint` puts the irreversible warning on the
approval, `readOnlyHint` lets a call run beside others. Every other call to one server waits for
the one before it, since servers like `server-filesystem` race on concurrent writes.
"""

from __future__ import annotations

from typing import Any

import mcp_types

from jarvis.agent_layer.events import ToolProgress
from jarvis.agent_layer.tools import ToolResult
from jarvis.core.mcp.client import MCPConnection, ProgressListener
from jarvis.core.mcp.results import to_tool_result
from jarvis.core.mcp.session_parts import MCPServerError
from jarvis.core.tools.base import Tool, ToolEnv, ToolSource


class MCPTool(Tool):
    """One tool of one MCP server, called through that server's connection."""

    def __init__(self, connection: MCPConnection, spec: mcp_types.Tool, exposed: str) -> None:
        # Tool declares these as ClassVars; an MCP tool is only known at run time.
        self.name = exposed  # type: ignore[misc]
        self.own_name = spec.name
        self.description = describe(connection.name, spec)  # type: ignore[misc]
        self.parameters = spec.input_schema  # type: ignore[misc]
        hints = spec.annotations or mcp_types.ToolAnnotations()
        self.read_only = hints.read_only_hint is True
        self.destructive = hints.destructive_hint is True and not self.read_only  # type: ignore[misc]
        self._connection = connection
        self._source = ToolSource(kind="mcp", name=connection.name)

    @property
    def source(self) -> ToolSource:
        return self._source

    @property
    def server(self) -> str:
        return self._connection.name

    @property
    def summary(self) -> str:
        """The server's own description (without the origin line)."""
        return self.description.split("\n", 1)[1] if "\n" in self.description else ""

    @property
    def requires_approval(self) -> bool:
        return not self._connection.config.auto_approves(self.own_name)

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        config = self._connection.config
        active = self._connection.active_calls
        active.append(env.call)
        try:
            async with self._connection.order.turn(shared=self.read_only):
                result = await self._connection.call_tool(
                    self.own_name,
                    args,
                    limit_sec=config.call_timeout_for(self.own_name),
                    on_progress=self._progress_listener(call_id, env),
                    retry_undelivered=True,
                    retry_lost=self.read_only,
                )
        except MCPServerError as exc:
            return ToolResult(content=str(exc), is_error=True, details={"mcp_code": exc.code})
        finally:
            active.remove(env.call)
        return to_tool_result(result, config.max_result_chars)

    def _progress_listener(self, call_id: str, env: ToolEnv) -> ProgressListener | None:
        emit = env.call.emit
        if emit is None:
            return None

        def report(progress: float, total: float | None, message: str | None) -> None:
            event = ToolProgress(
                tool_call_id=call_id,
                tool_name=self.name,
                progress=progress,
                total=total,
                message=message or "",
            )
            emit(event)

        return report


def describe(server: str, spec: mcp_types.Tool) -> str:
    """The origin first, so the model (and a person reading the tool list) knows whose it is."""
    own = spec.description or spec.title or ""
    origin = f"[MCP server '{server}', tool '{spec.name}']"
    return f"{origin}\n{own}" if own else origin
