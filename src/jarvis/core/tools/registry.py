"""The tool registry. Sessions read it every turn, so registrations show up on the next turn."""

from __future__ import annotations

from collections.abc import Iterable

from jarvis.core.tools.base import Tool


class ToolRegistry:
    """Tools by name in layers: built-ins first, then user and MCP tools that override them."""

    _LAYERS = ("builtin", "agent", "procedure", "user", "mcp")

    def __init__(self) -> None:
        self._layers: dict[str, dict[str, Tool]] = {layer: {} for layer in self._LAYERS}
        # Built-ins an owner (an MCP server's `replace_builtins`) took over; hidden while it lives.
        self._hidden_by: dict[str, frozenset[str]] = {}
        self._hidden: frozenset[str] = frozenset()
        self.version = 0

    def register(self, tool: Tool) -> None:
        self._layers[tool.source.kind][tool.name] = tool
        self.version += 1

    def register_all(self, tools: Iterable[Tool]) -> None:
        for tool in tools:
            self.register(tool)

    def unregister(self, name: str, *, kind: str) -> None:
        if self._layers[kind].pop(name, None) is not None:
            self.version += 1

    def replace_layer(self, kind: str, tools: Iterable[Tool], *, owner: str | None = None) -> None:
        """Swap the tools of one source (optionally one owner, e.g. one MCP server) at once."""
        layer = self._layers[kind]
        for name in [n for n, tool in layer.items() if owner is None or tool.source.name == owner]:
            del layer[name]
        for tool in tools:
            layer[tool.name] = tool
        self.version += 1

    def hide_builtins(self, owner: str, names: Iterable[str]) -> None:
        """Hide these built-ins for `owner` (replacing what it hid before)."""
        hidden = frozenset(names)
        if self._hidden_by.get(owner, frozenset()) == hidden:
            return
        self._hidden_by[owner] = hidden
        self._hidden = frozenset().union(*self._hidden_by.values())
        self.version += 1

    def get(self, name: str) -> Tool | None:
        for layer in reversed(self._LAYERS):
            tool = self._layers[layer].get(name)
            if tool is not None and not (layer == "builtin" and name in self._hidden):
                return tool
        return None

    def tools(self) -> list[Tool]:
        """Visible tools; a later layer hides a built-in of the same name."""
        merged: dict[str, Tool] = {}
        for layer in self._LAYERS:
            merged.update(self._layers[layer])
        if self._hidden:
            builtins = self._layers["builtin"]
            for name in self._hidden:
                if merged.get(name) is builtins.get(name):
                    merged.pop(name, None)
        return list(merged.values())

    def names(self) -> list[str]:
        return sorted(tool.name for tool in self.tools())
