"""The built-in tools (seed 000 table)."""

from __future__ import annotations

from pydantic import BaseModel, Field, SecretStr

from jarvis.core.tools.base import Tool
from jarvis.core.tools.builtins.files import EditFileTool, ReadFileTool, WriteFileTool
from jarvis.core.tools.builtins.search import GlobTool, GrepTool, ListDirTool
from jarvis.core.tools.builtins.shell import BashTool
from jarvis.core.tools.builtins.web import WebFetchTool, WebSearchTool


class BuiltinToolSettings(BaseModel):
    bash_timeout_sec: float = Field(30.0, gt=0, le=600, description="Default bash timeout.")
    output_cap_chars: int = Field(30_000, ge=1000, description="Longest tool output shown.")
    brave_api_key: SecretStr | None = Field(None, description="Brave Search key (else DDG).")
    web_timeout_sec: float = Field(20.0, gt=0)
    web_max_bytes: int = Field(5_000_000, ge=10_000)


def builtin_tools(settings: BuiltinToolSettings | None = None) -> list[Tool]:
    s = settings or BuiltinToolSettings()
    key = s.brave_api_key.get_secret_value() if s.brave_api_key else None
    return [
        BashTool(default_timeout=s.bash_timeout_sec, output_cap=s.output_cap_chars),
        WriteFileTool(),
        EditFileTool(),
        ReadFileTool(output_cap=s.output_cap_chars),
        GlobTool(),
        GrepTool(output_cap=s.output_cap_chars),
        ListDirTool(),
        WebSearchTool(key, timeout=s.web_timeout_sec),
        WebFetchTool(timeout=s.web_timeout_sec, max_bytes=s.web_max_bytes),
    ]


__all__ = ["BuiltinToolSettings", "builtin_tools"]
