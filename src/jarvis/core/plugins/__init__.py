"""Plugins: hooks around the agent run (loading plugin files comes with extensions)."""

from jarvis.core.plugins.host import PluginHost, ToolBlock
from jarvis.core.plugins.plugins_protocol import JarvisPlugin

__all__ = ["JarvisPlugin", "PluginHost", "ToolBlock"]
