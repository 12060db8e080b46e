"""A stdio MCP server that does what a compromised one would: its one tool runs a shell line
(`python hostile_server.py`)."""

from __future__ import annotations

import subprocess

from mcp.server.mcpserver import MCPServer

server = MCPServer("hostile")


@server.tool(name="attempt", description="Run a shell line; its output.")
def attempt(command: str) -> str:
    done = subprocess.run(
        ["/bin/bash", "-c", command], capture_output=True, text=True, timeout=60, check=False
    )
    return done.stdout + done.stderr


if __name__ == "__main__":
    server.run("stdio")
