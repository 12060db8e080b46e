"""Resources and prompts of connected servers.

- `read_resource`: one tool the model calls for the `resource_link`s tool results mention (and
  any resource a server lists); its text is capped like a tool result, images become parts. A
  server's URI templates (`resources/templates/list`) are named in its description; the model
  reads one by giving the template and its variables (`arguments`), expanded per RFC 6570.
- `@server:uri` in a prompt attaches that resource's text to the message (terminal and HUD).
- Prompts: `/<server>:<prompt> args` expands to the prompt's messages as the user's text.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any, Final

import mcp_types
from mcp.shared.uri_template import InvalidUriTemplate, UriTemplate

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.mcp.client import MCPConnection
from jarvis.core.mcp.results import to_tool_result
from jarvis.core.mcp.session_parts import MCPServerError, all_pages
from jarvis.core.tools.base import Tool, ToolEnv, ToolSource

READ_RESOURCE: Final = "read_resource"
# `@server:uri` — the uri runs to the next whitespace.
MENTION: Final = re.compile(r"@([A-Za-z0-9_-]+):(\S+)")
PROMPT_COMMAND: Final = re.compile(r"^/([A-Za-z0-9_-]+):([^\s]+)(?:\s+(.*))?$", re.S)
_LIST_PAGES: Final = 20
# Templates named in the tool's description (every turn pays for them): a few per server.
_TEMPLATES_DESCRIBED: Final = 8


async def list_resources(connection: MCPConnection) -> list[mcp_types.Resource]:
    async def send(client: Any) -> list[mcp_types.Resource]:
        pages = client.list_resources
        return await all_pages(lambda cursor: pages(cursor=cursor), "resources", _LIST_PAGES)

    limit = connection.config.call_timeout
    return await connection.request("resources/list", send, limit_sec=limit, retry_lost=True)


async def list_resource_templates(connection: MCPConnection) -> list[mcp_types.ResourceTemplate]:
    async def send(client: Any) -> list[mcp_types.ResourceTemplate]:
        pages = client.list_resource_templates
        field = "resource_templates"
        return await all_pages(lambda cursor: pages(cursor=cursor), field, _LIST_PAGES)

    limit = connection.config.call_timeout
    return await connection.request(
        "resources/templates/list", send, limit_sec=limit, retry_lost=True
    )


@dataclass(frozen=True)
class ResourceCatalog:
    """A server's resources and resource templates, as `jarvis mcp list` and the HUD show them."""

    resources: list[mcp_types.Resource]
    templates: list[mcp_types.ResourceTemplate]

    def as_dict(self) -> dict[str, object]:
        return {
            "resources": [
                {"uri": str(r.uri), "name": r.name, "description": r.description or ""}
                for r in self.resources
            ],
            "templates": [
                {"uri_template": t.uri_template, "name": t.name, "description": t.description or ""}
                for t in self.templates
            ],
        }


def offers_resources(connection: MCPConnection) -> bool:
    client = connection.client
    return client is not None and client.server_capabilities.resources is not None


async def resource_catalog(connection: MCPConnection) -> ResourceCatalog:
    """Both lists; empty for a server without the resources capability."""
    if not offers_resources(connection):
        return ResourceCatalog([], [])
    return ResourceCatalog(
        await list_resources(connection), await list_resource_templates(connection)
    )


def resolve_uri(uri: str, arguments: object) -> str:
    """A URI as is, or a URI template expanded with `arguments` (every variable needed)."""
    if not UriTemplate.is_template(uri):
        return uri
    try:
        template = UriTemplate.parse(uri)
    except InvalidUriTemplate as exc:
        raise ValueError(f"not a valid URI template: {exc}") from None
    values = {str(k): str(v) for k, v in arguments.items()} if isinstance(arguments, dict) else {}
    missing = [name for name in template.variable_names if name not in values]
    if missing:
        raise ValueError(f"the URI template needs {', '.join(missing)} (give them in 'arguments')")
    return template.expand(values)


async def read(connection: MCPConnection, uri: str) -> mcp_types.ReadResourceResult:
    async def send(client: Any) -> mcp_types.ReadResourceResult:
        result: mcp_types.ReadResourceResult = await client.read_resource(uri)
        return result

    limit = connection.config.call_timeout
    return await connection.request(f"read {uri}", send, limit_sec=limit, retry_lost=True)


def as_tool_result(result: mcp_types.ReadResourceResult, max_chars: int) -> ToolResult:
    blocks: list[mcp_types.ContentBlock] = [
        mcp_types.EmbeddedResource(resource=contents) for contents in result.contents
    ]
    return to_tool_result(mcp_types.CallToolResult(content=blocks), max_chars)


class ReadResourceTool(Tool):
    """Reads one resource of one connected server."""

    def __init__(
        self,
        connections: dict[str, MCPConnection],
        templates: dict[str, list[mcp_types.ResourceTemplate]] | None = None,
    ) -> None:
        self.name = READ_RESOURCE  # type: ignore[misc]
        self.description = (  # type: ignore[misc]
            "Read a resource of an MCP server (e.g. a resource link a tool returned)."
            + _templates_described(templates or {})
        )
        self.parameters = {  # type: ignore[misc]
            "type": "object",
            "properties": {
                "server": {"type": "string", "enum": sorted(connections)},
                "uri": {
                    "type": "string",
                    "description": "The resource URI, or one of the server's URI templates.",
                },
                "arguments": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                    "description": "Values of a URI template's {variables}.",
                },
            },
            "required": ["server", "uri"],
        }
        self.read_only = True
        self._connections = connections
        self._source = ToolSource(kind="mcp", name="")

    @property
    def source(self) -> ToolSource:
        return self._source

    @property
    def requires_approval(self) -> bool:
        # Fail closed: only when every server it can reach auto-approves it.
        return not all(c.config.auto_approves(READ_RESOURCE) for c in self._connections.values())

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        connection = self._connections.get(str(args.get("server")))
        if connection is None:
            return ToolResult(content=f"no such MCP server: {args.get('server')}", is_error=True)
        try:
            uri = resolve_uri(str(args.get("uri", "")), args.get("arguments"))
            result = await read(connection, uri)
        except (MCPServerError, ValueError) as exc:
            return ToolResult(content=str(exc), is_error=True)
        return as_tool_result(result, connection.config.max_result_chars)


def _templates_described(templates: dict[str, list[mcp_types.ResourceTemplate]]) -> str:
    lines = [
        f"\n- {server}: {t.uri_template} ({t.name})"
        for server, listed in sorted(templates.items())
        for t in listed[:_TEMPLATES_DESCRIBED]
    ]
    if not lines:
        return ""
    return " URI templates (give the template as `uri`, its variables as `arguments`):" + "".join(
        lines
    )


async def attach_mentions(text: str, connections: dict[str, MCPConnection]) -> str:
    """The prompt with each `@server:uri` resource's text appended (unknown ones left as is)."""
    attached: list[str] = []
    for server, uri in dict.fromkeys(MENTION.findall(text)):
        connection = connections.get(server)
        if connection is None:
            continue
        try:
            result = await read(connection, uri)
        except MCPServerError as exc:
            attached.append(f"[@{server}:{uri}: {exc.reason}]")
            continue
        body = as_tool_result(result, connection.config.max_result_chars).content
        attached.append(f'<resource server="{server}" uri="{uri}">\n{body}\n</resource>')
    return text if not attached else text + "\n\n" + "\n\n".join(attached)


async def list_prompts(connection: MCPConnection) -> list[mcp_types.Prompt]:
    async def send(client: Any) -> list[mcp_types.Prompt]:
        page = await client.list_prompts()
        prompts: list[mcp_types.Prompt] = page.prompts
        return prompts

    limit = connection.config.call_timeout
    return await connection.request("prompts/list", send, limit_sec=limit, retry_lost=True)


def prompt_arguments(spec: mcp_types.Prompt, text: str) -> dict[str, str]:
    """`key=value` pairs, or plain words given to the arguments in their listed order."""
    names = [arg.name for arg in spec.arguments or []]
    values: dict[str, str] = {}
    words = shlex.split(text) if text.strip() else []
    positional = [w for w in words if "=" not in w or w.split("=", 1)[0] not in names]
    for word in words:
        key, _, value = word.partition("=")
        if key in names and _:
            values[key] = value
    free = [n for n in names if n not in values]
    for name, word in zip(free, positional, strict=False):
        values[name] = word
    return values


async def expand_prompt(connection: MCPConnection, name: str, arguments: dict[str, str]) -> str:
    """The prompt's messages as one text (the user's turn)."""

    async def send(client: Any) -> mcp_types.GetPromptResult:
        result: mcp_types.GetPromptResult = await client.get_prompt(name, arguments)
        return result

    limit = connection.config.call_timeout
    result = await connection.request(f"prompt {name}", send, limit_sec=limit, retry_lost=True)
    parts: list[str] = []
    for message in result.messages:
        block = message.content
        if isinstance(block, mcp_types.TextContent):
            parts.append(block.text)
        elif isinstance(block, mcp_types.EmbeddedResource):
            contents = block.resource
            if isinstance(contents, mcp_types.TextResourceContents):
                parts.append(contents.text)
    return "\n\n".join(parts)
