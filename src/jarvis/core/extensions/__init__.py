"""Extensions dropped into `~/.jarvis/`: user tools, skills and plugins, read fresh on each load."""

from jarvis.core.extensions.plugin_loader import (
    LoadedPlugin,
    PluginLoader,
    PluginLoadResult,
    load_plugins_dir,
)
from jarvis.core.extensions.report import ExtensionKind, ExtensionStatus, LoadError
from jarvis.core.extensions.skills import Skill, SkillRegistry, read_skills
from jarvis.core.extensions.user_tools import (
    LoadResult,
    ToolDeclaration,
    UserTool,
    UserToolLoader,
    load_tools_dir,
)

__all__ = [
    "ExtensionKind",
    "ExtensionStatus",
    "LoadError",
    "LoadResult",
    "LoadedPlugin",
    "PluginLoadResult",
    "PluginLoader",
    "Skill",
    "SkillRegistry",
    "ToolDeclaration",
    "UserTool",
    "UserToolLoader",
    "load_plugins_dir",
    "load_tools_dir",
    "read_skills",
]
