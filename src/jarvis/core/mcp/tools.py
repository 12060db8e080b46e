"""An MCP server's tool as a Jarvis tool, and the mapping of its results.

The tool's name is the MCP tool's own name (what the model sees and rules match); the server
is kept on `source`. When two servers expose one name, the server later in the configuration
wins (see `MCPManager`).
"""

from __future__ import annotations

import json
from typing import Any, assert_never

import mcp_types

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.mcp.client import MCPConnection, MCPServerError
from jarvis.core.tools.base import Tool, ToolEnv, ToolSource


class MCPTool(Tool):
    """One tool of one MCP server, called through that server's connection."""

    def __init__(self, connection: MCPConnection, spec: mcp_types.Tool) -> None:
        # Tool declares these as ClassVars; an MCP tool is only known at run time.
        self.name = spec.name  # type: ignore[misc]
        self.description = spec.description or spec.title or ""  # type: ignore[misc]
        self.parameters = spec.input_schema  # type: ignore[misc]
        self._connection = connection
        self._source = ToolSource(kind="mcp", name=connection.name)

    @property
    def source(self) -> ToolSource:
        return self._source

    @property
    def requires_approval(self) -> bool:
        rule = self._connection.config.require_approval
        return rule if isinstance(rule, bool) else self.name in rule

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        try:
            result = await self._connection.call_tool(self.name, args)
        except MCPServerError as exc:
            return ToolResult(content=str(exc), is_error=True, details={"mcp_code": exc.code})
        return to_tool_result(result)


def to_tool_result(result: mcp_types.CallToolResult) -> ToolResult:
    """Text blocks joined, other blocks as short notes, structured content when it adds news."""
    text = "\n".join(_render(block) for block in result.content)
    details: dict[str, Any] = {}
    structured = result.structured_content
    if structured is not None:
        details["structured_content"] = structured
        if not _same_as_text(structured, text):
            rendered = json.dumps(structured, ensure_ascii=False)
            text = f"{text}\n{rendered}" if text else rendered
    return ToolResult(content=text, is_error=result.is_error, details=details)


def _render(block: mcp_types.ContentBlock) -> str:
    match block:
        case mcp_types.TextContent():
            return block.text
        case mcp_types.ImageContent() | mcp_types.AudioContent():
            return f"[{block.type}: {block.mime_type}, {_decoded_size(block.data)} bytes]"
        case mcp_types.ResourceLink():
            return f"[resource link: {block.uri} ({block.name})]"
        case mcp_types.EmbeddedResource():
            return _render_resource(block.resource)
        case _:
            assert_never(block)


def _render_resource(
    resource: mcp_types.TextResourceContents | mcp_types.BlobResourceContents,
) -> str:
    if isinstance(resource, mcp_types.TextResourceContents):
        return f"[resource: {resource.uri}]\n{resource.text}"
    mime = resource.mime_type or "application/octet-stream"
    return f"[resource: {resource.uri}, {mime}, {_decoded_size(resource.blob)} bytes]"


def _decoded_size(base64_text: str) -> int:
    data = base64_text.strip()
    return len(data) * 3 // 4 - data[-2:].count("=")


def _same_as_text(structured: Any, text: str) -> bool:
    try:
        parsed: Any = json.loads(text)
    except ValueError:
        parsed = text
    if parsed == structured:
        return True
    # MCPServer wraps a plain return value as {"result": value} beside its text form.
    return (
        isinstance(structured, dict)
        and structured.keys() == {"result"}
        and structured["result"] in (parsed, text)
    )
