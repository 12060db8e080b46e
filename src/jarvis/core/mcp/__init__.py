"""MCP servers' tools as Jarvis tools: settings, one healing session per server, the manager."""

from jarvis.core.mcp.client import MCPConnection
from jarvis.core.mcp.config import (
    MCP_SERVERS_SETTING,
    MCPConfigError,
    MCPServerConfig,
    check_unique_names,
    parse_mcp_servers,
)
from jarvis.core.mcp.manager import ConfigProblem, MCPManager, ServerStatus, ToolInfo
from jarvis.core.mcp.names import NameTable, exposed_name
from jarvis.core.mcp.results import to_tool_result
from jarvis.core.mcp.session_parts import MCPServerError
from jarvis.core.mcp.tools import MCPTool
from jarvis.core.mcp.transport import ClientHooks

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
