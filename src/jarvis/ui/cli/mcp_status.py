"""MCP servers as `jarvis extensions` and `jarvis mcp list` print them."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from jarvis.common.i18n import Language, t
from jarvis.core.mcp import MCPManager, MCPServerError, ServerStatus
from jarvis.core.mcp.resources import ResourceCatalog

_INDENT = " " * 9


def status_lines(
    servers: list[ServerStatus],
    lang: Language,
    catalogs: dict[str, ResourceCatalog] | None = None,
) -> list[str]:
    """Each server's state, its tools with descriptions, its resources and URI templates (when
    `catalogs` has them), what it shadows, its last error."""
    lines: list[str] = []
    for server in servers:
        mark = "ok " if server.ok else "ERR"
        state = t(f"mcp.state.{server.state}", lang)
        tools = t("mcp.tool_count", lang, count=server.tool_count)
        lines.append(f"{mark} mcp    {server.name:<24} {state} · {tools}")
        for tool in server.tools:
            summary = tool.description.splitlines()[0][:80] if tool.description else ""
            lines.append(f"{_INDENT}{tool.name}  {summary}".rstrip())
        if catalogs and server.name in catalogs:
            lines.extend(_catalog_lines(catalogs[server.name], lang))
        if server.shadows:
            lines.append(_INDENT + t("mcp.shadows", lang, names=", ".join(server.shadows)))
        if server.error:
            lines.append(_INDENT + t("mcp.last_error", lang, error=server.error))
        if server.log:
            lines.append(_INDENT + t("mcp.stderr_log", lang, path=server.log))
    return lines


async def resource_catalogs(manager: MCPManager) -> dict[str, ResourceCatalog]:
    """The resources and URI templates of each connected server (one that fails: left out)."""
    found: dict[str, ResourceCatalog] = {}
    for status in manager.status():
        if status.ok:
            with contextlib.suppress(MCPServerError):
                found[status.name] = await manager.resources(status.name)
    return found


def _catalog_lines(catalog: ResourceCatalog, lang: Language) -> list[str]:
    if not catalog.resources and not catalog.templates:
        return []
    counts = t(
        "mcp.resource_count", lang, count=len(catalog.resources), templates=len(catalog.templates)
    )
    lines = [_INDENT + counts]
    lines.extend(f"{_INDENT}  {each.uri_template}  {each.name}" for each in catalog.templates)
    return lines


class StatusNotices:
    """One terminal line when a server is connected or has failed (not on every tool-list
    refresh): the person knows when its tools and prompts can be used."""

    _SAID = ("connected", "failed", "needs_login")

    def __init__(self, say: Callable[[str], None], lang: Language) -> None:
        self.say = say
        self.lang = lang
        self._last: dict[str, str] = {}

    def follow(self, manager: MCPManager) -> Callable[[], None]:
        """Says the states already reached, then each change; returns the way to stop."""
        for status in manager.status():
            self(status)
        return manager.watch(self)

    def __call__(self, status: ServerStatus) -> None:
        if status.state not in self._SAID or self._last.get(status.name) == status.state:
            self._last[status.name] = status.state
            return
        self._last[status.name] = status.state
        state = t(f"mcp.state.{status.state}", self.lang)
        detail = t("mcp.tool_count", self.lang, count=status.tool_count) if status.ok else ""
        detail = detail or (status.error or "")
        self.say(t("mcp.terminal.status", self.lang, name=status.name, state=state, detail=detail))
