"""MCP servers' tools as Jarvis tools: settings, one kept-open session per server, the manager."""

from jarvis.core.mcp.client import MCPConnection, MCPServerError
from jarvis.core.mcp.config import (
    MCP_SERVERS_SETTING,
    MCPConfigError,
    MCPServerConfig,
    check_unique_names,
    parse_mcp_servers,
)
from jarvis.core.mcp.manager import MCPManager, ServerStatus
from jarvis.core.mcp.tools import MCPTool, to_tool_result

__all__ = [
    "MCP_SERVERS_SETTING",
    "MCPConfigError",
    "MCPConnection",
    "MCPManager",
    "MCPServerConfig",
    "MCPServerError",
    "MCPTool",
    "ServerStatus",
    "check_unique_names",
    "parse_mcp_servers",
    "to_tool_result",
]
