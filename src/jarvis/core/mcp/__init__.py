"""MCP servers' tools as Jarvis tools: settings, one healing session per server, the manager.

The names below load on first use (PEP 562): importing this package, or the manager, does not
load the MCP SDK, which a server needs only once a first MCP server connects (start-up cost).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jarvis.core.mcp.client import MCPConnection
    from jarvis.core.mcp.config import (
        MCP_SERVERS_SETTING,
        MCPConfigError,
        MCPServerConfig,
        check_unique_names,
        parse_mcp_servers,
    )
    from jarvis.core.mcp.hooks import ClientHooks
    from jarvis.core.mcp.manager import ConfigProblem, MCPManager, ServerStatus, ToolInfo
    from jarvis.core.mcp.names import NameTable, exposed_name
    from jarvis.core.mcp.results import to_tool_result
    from jarvis.core.mcp.session_parts import MCPServerError
    from jarvis.core.mcp.tools import MCPTool

# Each name's module in this package.
_MODULE_OF = {
    "MCP_SERVERS_SETTING": "config",
    "ClientHooks": "hooks",
    "ConfigProblem": "manager",
    "MCPConfigError": "config",
    "MCPConnection": "client",
    "MCPManager": "manager",
    "MCPServerConfig": "config",
    "MCPServerError": "session_parts",
    "MCPTool": "tools",
    "NameTable": "names",
    "ServerStatus": "manager",
    "ToolInfo": "manager",
    "check_unique_names": "config",
    "exposed_name": "names",
    "parse_mcp_servers": "config",
    "to_tool_result": "results",
}

__all__ = [
    "MCP_SERVERS_SETTING",
    "ClientHooks",
    "ConfigProblem",
    "MCPConfigError",
    "MCPConnection",
    "MCPManager",
    "MCPServerConfig",
    "MCPServerError",
    "MCPTool",
    "NameTable",
    "ServerStatus",
    "ToolInfo",
    "check_unique_names",
    "exposed_name",
    "parse_mcp_servers",
    "to_tool_result",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
