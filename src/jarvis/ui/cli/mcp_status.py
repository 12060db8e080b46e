"""MCP servers as `jarvis extensions` and `jarvis mcp list` print them."""

from __future__ import annotations

from jarvis.common.i18n import Language, t
from jarvis.core.mcp import ServerStatus

_INDENT = " " * 9


def status_lines(servers: list[ServerStatus], lang: Language) -> list[str]:
    """Each server's state, its tools with descriptions, what it shadows, its last error."""
    lines: list[str] = []
    for server in servers:
        mark = "ok " if server.ok else "ERR"
        state = t(f"mcp.state.{server.state}", lang)
        tools = t("mcp.tool_count", lang, count=server.tool_count)
        lines.append(f"{mark} mcp    {server.name:<24} {state} · {tools}")
        for tool in server.tools:
            summary = tool.description.splitlines()[0][:80] if tool.description else ""
            lines.append(f"{_INDENT}{tool.name}  {summary}".rstrip())
        if server.shadows:
            lines.append(_INDENT + t("mcp.shadows", lang, names=", ".join(server.shadows)))
        if server.error:
            lines.append(_INDENT + t("mcp.last_error", lang, error=server.error))
        if server.log:
            lines.append(_INDENT + t("mcp.stderr_log", lang, path=server.log))
    return lines
