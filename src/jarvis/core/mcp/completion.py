"""What the HUD offers while a person types `/<server>:<prompt> args`: the prompts of connected
servers, and the values a server completes for the argument being typed (`completion/complete`).

A server that does not declare the `completions` capability, or answers "method not found",
completes nothing: an empty list, not an error (most servers have no completions at all).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import mcp_types

from jarvis.core.mcp.client import MCPConnection
from jarvis.core.mcp.resources import list_prompts
from jarvis.core.mcp.session_parts import MCPServerError

# The spec caps one answer at 100 values; a list longer than a screen helps nobody.
MAX_VALUES: Final = 100


@dataclass(frozen=True)
class PromptArgumentInfo:
    name: str
    description: str
    required: bool


@dataclass(frozen=True)
class PromptInfo:
    """One prompt as a slash command: `/<server>:<name>`."""

    server: str
    name: str
    description: str
    arguments: tuple[PromptArgumentInfo, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "server": self.server,
            "name": self.name,
            "command": f"/{self.server}:{self.name}",
            "description": self.description,
            "arguments": [argument.__dict__ for argument in self.arguments],
        }


def _offers(connection: MCPConnection, capability: str) -> bool:
    client = connection.client
    if connection.state != "connected" or client is None:
        return False
    return getattr(client.server_capabilities, capability, None) is not None


async def prompt_catalog(connections: list[MCPConnection]) -> list[PromptInfo]:
    """The prompts of every connected server that has any (a server that fails is left out)."""
    found: list[PromptInfo] = []
    for connection in connections:
        if not _offers(connection, "prompts"):
            continue
        try:
            prompts = await list_prompts(connection)
        except MCPServerError:
            continue  # its status line says why; the other servers' prompts still help
        found.extend(_info(connection.name, prompt) for prompt in prompts)
    return found


def _info(server: str, prompt: mcp_types.Prompt) -> PromptInfo:
    arguments = tuple(
        PromptArgumentInfo(arg.name, arg.description or "", bool(arg.required))
        for arg in prompt.arguments or []
    )
    description = prompt.description or prompt.title or ""
    return PromptInfo(server, prompt.name, description, arguments)


async def complete_argument(
    connection: MCPConnection,
    prompt: str,
    argument: str,
    value: str,
    context: dict[str, str] | None = None,
) -> list[str]:
    """Values the server suggests for `argument` of `prompt` given what is typed so far;
    `context` holds the prompt's other arguments already given (a value may depend on them)."""
    if not _offers(connection, "completions"):
        return []

    async def send(client: Any) -> mcp_types.CompleteResult:
        result: mcp_types.CompleteResult = await client.complete(
            mcp_types.PromptReference(name=prompt),
            {"name": argument, "value": value},
            context_arguments=context or None,
        )
        return result

    limit = connection.config.call_timeout
    try:
        result = await connection.request(
            f"complete {prompt}", send, limit_sec=limit, retry_lost=True
        )
    except MCPServerError as exc:
        if exc.code == mcp_types.METHOD_NOT_FOUND:
            return []
        raise
    return list(result.completion.values[:MAX_VALUES])
