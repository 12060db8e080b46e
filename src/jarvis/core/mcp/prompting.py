"""Connected servers' `instructions` (how to use their tools) as a system-prompt section."""

from __future__ import annotations

from typing import Final

# A server's text goes to the model on every turn; a runaway one must not eat the context.
MAX_INSTRUCTIONS_CHARS: Final = 2_000


def server_instructions(servers: list[tuple[str, str]]) -> str:
    """ "" with no instructions; else one headed block per server, each capped."""
    blocks = [
        f"## MCP server '{name}' (tools named {name}__*)\n{text.strip()[:MAX_INSTRUCTIONS_CHARS]}"
        for name, text in servers
        if text.strip()
    ]
    return "\n\n# Instructions from MCP servers\n\n" + "\n\n".join(blocks) if blocks else ""
