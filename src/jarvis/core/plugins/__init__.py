"""Plugins: hooks around the agent run (loading plugin files comes with extensions)."""

from jarvis.core.plugins.host import JarvisPlugin, PluginHost, ToolBlock

__all__ = ["JarvisPlugin", "PluginHost", "ToolBlock"]
