"""The plugin base class (seed 003: `jarvis.core.plugins.plugins_protocol.JarvisPlugin`).

A plugin that subclasses it overrides only the hooks it needs; the others do nothing. A plugin
that does not subclass it defines all five hooks.
"""

from __future__ import annotations

from typing import Any


class JarvisPlugin:
    """Base class with no-op hooks: a plugin overrides only what it needs."""

    name = "plugin"
    version = "0"

    async def before_agent_start(self, prompt: str, context: dict[str, Any]) -> None:
        return None

    async def before_tool_call(
        self, tool_name: str, args: dict[str, Any], auth: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Return {"block": True, "reason": "..."} to stop the call."""
        return None

    async def after_tool_call(
        self, tool_name: str, args: dict[str, Any], result: dict[str, Any]
    ) -> None:
        return None

    async def on_message_end(self, message: Any) -> Any:
        return None

    async def transform_context(self, messages: list[Any]) -> list[Any]:
        return messages
