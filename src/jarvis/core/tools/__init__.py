"""Tools: the base class, the registry re-read every turn, and the built-ins."""

from jarvis.core.tools.base import Tool, ToolSource
from jarvis.core.tools.registry import ToolRegistry

__all__ = ["Tool", "ToolRegistry", "ToolSource"]
