"""The host that calls plugin hooks, isolating each plugin's failures."""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from jarvis.common.logging import get_logger
from jarvis.model_layer.messages import LLMContext

_log = get_logger("jarvis.plugins")


@dataclass(frozen=True)
class ToolBlock:
    plugin: str
    reason: str


class PluginHost:
    def __init__(self) -> None:
        self.plugins: list[Any] = []

    def register(self, plugin: Any) -> None:
        self.plugins.append(plugin)

    def replace(self, old: Iterable[Any], new: Iterable[Any]) -> None:
        """Swap `old` plugins for `new` in one assignment: a hook running now sees either set."""
        stale = {id(plugin) for plugin in old}
        self.plugins = [p for p in self.plugins if id(p) not in stale] + list(new)

    async def _call(self, plugin: Any, hook: str, *args: Any) -> Any:
        method = getattr(plugin, hook, None)
        if method is None:  # a plugin that does not inherit may lack a hook: that is fine
            return None
        try:
            result = method(*args)
            return await result if inspect.isawaitable(result) else result
        except Exception:
            _log.exception("plugin %s failed in %s", getattr(plugin, "name", plugin), hook)
            return None

    async def before_tool_call(
        self, tool_name: str, args: dict[str, Any], auth: dict[str, Any]
    ) -> ToolBlock | None:
        for plugin in list(self.plugins):
            verdict = await self._call(plugin, "before_tool_call", tool_name, dict(args), auth)
            if isinstance(verdict, dict) and verdict.get("block"):
                reason = str(verdict.get("reason") or "no reason given")
                return ToolBlock(str(getattr(plugin, "name", type(plugin).__name__)), reason)
        return None

    async def after_tool_call(self, tool_name: str, args: dict[str, Any], is_error: bool) -> None:
        for plugin in list(self.plugins):
            await self._call(
                plugin, "after_tool_call", tool_name, dict(args), {"is_error": is_error}
            )

    async def before_agent_start(self, prompt: str, context: dict[str, Any]) -> None:
        for plugin in list(self.plugins):
            await self._call(plugin, "before_agent_start", prompt, dict(context))

    async def transform_context(self, ctx: LLMContext) -> LLMContext:
        """Called before every LLM call (seed: declared but never called); each plugin gets the
        messages and may return a new list."""
        messages = list(ctx.messages)
        for plugin in list(self.plugins):
            changed = await self._call(plugin, "transform_context", list(messages))
            if isinstance(changed, list):
                messages = changed
        return ctx if messages == ctx.messages else ctx.model_copy(update={"messages": messages})

    async def on_message_end(self, text: str) -> str:
        """A plugin may replace the final answer by returning a string."""
        for plugin in list(self.plugins):
            replaced = await self._call(plugin, "on_message_end", text)
            if isinstance(replaced, str):
                text = replaced
        return text
