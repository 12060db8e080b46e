"""A real MCP server for the tests, built with the SDK's `MCPServer`.

Imported in-process for SSE and streamable HTTP (served by uvicorn), and run as a script for
stdio: `python demo_server.py [--prefix NAME]` (the prefix tells two stdio servers apart).

`--fifos IN OUT --ready FILE` starts the server ahead of its client: once imported it touches
FILE, then serves stdio over the two named pipes, which a client's command bridges to. Tests of
short timeouts use it so the budget measures answers, not how fast a busy machine starts Python.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
from typing import Any

from mcp import MCPError
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import (
    METHOD_NOT_FOUND,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel

PNG_BYTES = b"\x89PNG\r\n\x1a\n" + bytes(24)


class Stats(BaseModel):
    count: int
    mean: float


async def _refuse_discover(
    ctx: ServerRequestContext[Any, Any], call_next: CallNext
) -> HandlerResult:
    # Without `server/discover` the client falls back to the initialize handshake (2025 era).
    if ctx.method == "server/discover":
        raise MCPError(METHOD_NOT_FOUND, "server/discover is not served here")
    return await call_next(ctx)


def build_server(prefix: str = "", *, legacy: bool = False) -> MCPServer:
    """The demo server; `prefix` is prepended to every tool name, `legacy` speaks only 2025."""
    middleware = [_refuse_discover] if legacy else []
    server = MCPServer("jarvis-demo", log_level="WARNING", middleware=middleware)

    @server.tool(name=f"{prefix}echo", description="Echo the text back.")
    def echo(text: str) -> str:
        return text

    @server.tool(name=f"{prefix}add", description="Add two integers.")
    def add(a: int, b: int) -> CallToolResult:
        return CallToolResult(
            content=[TextContent(text=f"{a} + {b} = {a + b}")], structured_content={"sum": a + b}
        )

    @server.tool(name=f"{prefix}stats", description="Count and mean of numbers.")
    def stats(numbers: list[float]) -> Stats:
        return Stats(count=len(numbers), mean=sum(numbers) / len(numbers))

    @server.tool(name=f"{prefix}fail", description="Always raises.")
    def fail(message: str) -> str:
        raise ToolError(message)

    @server.tool(name=f"{prefix}slow", description="Sleep, then answer.")
    async def slow(seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "done"

    @server.tool(name=f"{prefix}media", description="One block of every kind.")
    def media() -> CallToolResult:
        return CallToolResult(
            content=[
                TextContent(text="here you go"),
                ImageContent(data=base64.b64encode(PNG_BYTES).decode(), mime_type="image/png"),
                ResourceLink(uri="file:///tmp/report.txt", name="report", mime_type="text/plain"),
                EmbeddedResource(
                    resource=TextResourceContents(uri="memo://today", text="buy milk")
                ),
            ]
        )

    @server.tool(name=f"{prefix}whoami", description="The HTTP headers this call arrived with.")
    def whoami(ctx: Context) -> dict[str, str]:
        headers = ctx.headers or {}
        return {key: headers.get(key, "") for key in ("authorization", "x-org")}

    @server.tool(name=f"{prefix}pid", description="The server's process id.")
    def pid() -> int:
        return os.getpid()

    @server.tool(name=f"{prefix}grow", description="Add a tool named `name`.")
    async def grow(name: str, ctx: Context) -> str:
        server.add_tool(lambda: name, name=name, description="Grown at run time.")
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            await ctx.notify_tools_changed()
        else:
            await ctx.session.send_tool_list_changed()
        return "grown"

    return server


def _serve_over_fifos(server: MCPServer, to_server: str, from_server: str, ready: str) -> None:
    with open(ready, "w", encoding="utf-8"):
        pass
    # Each open blocks until the bridge opens the other end.
    os.dup2(os.open(to_server, os.O_RDONLY), 0)
    os.dup2(os.open(from_server, os.O_WRONLY), 1)
    server.run("stdio")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--prefix", default="")
    parser.add_argument("--fifos", nargs=2, metavar=("IN", "OUT"))
    parser.add_argument("--ready")
    args = parser.parse_args()
    demo = build_server(args.prefix)
    if args.fifos:
        _serve_over_fifos(demo, args.fifos[0], args.fifos[1], args.ready)
    else:
        demo.run("stdio")
