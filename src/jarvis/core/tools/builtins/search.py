"""Finding things: glob (newest first), grep (regex, skips binaries), list_dir."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.tools.base import Tool, ToolEnv
from jarvis.core.tools.builtins._args import bool_arg, display_path, resolve_path, text_arg
from jarvis.core.tools.builtins._output import cap, cap_lines, is_binary

_SKIP_DIRS = {".git", ".venv", "node_modules", "__pycache__"}
_DIR = {"type": "string", "description": "Directory to search (default: the workspace)."}


def _base(args: dict[str, Any], env: ToolEnv) -> Path:
    return resolve_path(env.workspace, text_arg(args, "path", required=False, default="."))


def _visible(path: Path, base: Path) -> bool:
    return not any(part in _SKIP_DIRS for part in path.relative_to(base).parts)


class GlobTool(Tool):
    name = "glob"
    description = "Find files by glob pattern (e.g. '**/*.py'), newest first."
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {"pattern": {"type": "string"}, "path": _DIR},
        "required": ["pattern"],
    }

    def __init__(self, max_results: int = 500) -> None:
        self.max_results = max_results

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        pattern = text_arg(args, "pattern")
        base = _base(args, env)
        if not base.is_dir():
            return ToolResult(content=f"no such directory: {base}", is_error=True)
        found = [p for p in base.glob(pattern) if p.is_file() and _visible(p, base)]
        found.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        if not found:
            return ToolResult(content=f"no files match {pattern}")
        names = [display_path(p, env.workspace) for p in found]
        return ToolResult(content=cap_lines(names, self.max_results, "files"))


class GrepTool(Tool):
    name = "grep"
    description = "Search file contents with a Python regular expression; prints path:line:text."
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "pattern": {"type": "string"},
            "path": _DIR,
            "glob": {"type": "string", "description": "Only files matching this glob."},
            "ignore_case": {"type": "boolean"},
        },
        "required": ["pattern"],
    }

    def __init__(self, max_matches: int = 500, output_cap: int = 30_000) -> None:
        self.max_matches = max_matches
        self.output_cap = output_cap

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        flags = re.IGNORECASE if bool_arg(args, "ignore_case") else 0
        try:
            regex = re.compile(text_arg(args, "pattern"), flags)
        except re.error as exc:
            return ToolResult(content=f"invalid regular expression: {exc}", is_error=True)
        base = _base(args, env)
        files = (
            [base]
            if base.is_file()
            else sorted(base.glob(text_arg(args, "glob", required=False, default="**/*")))
        )
        matches: list[str] = []
        for path in files:
            if path.is_file() and (path == base or _visible(path, base)):
                matches.extend(self._search(path, regex, env.workspace))
        if not matches:
            return ToolResult(content="no matches")
        return ToolResult(
            content=cap(cap_lines(matches, self.max_matches, "matches"), self.output_cap)
        )

    def _search(self, path: Path, regex: re.Pattern[str], workspace: Path) -> list[str]:
        try:
            data = path.read_bytes()
        except OSError:
            return []
        if is_binary(data[:8192]):
            return []
        shown = display_path(path, workspace)
        lines = data.decode("utf-8", errors="replace").splitlines()
        return [f"{shown}:{n}:{line}" for n, line in enumerate(lines, 1) if regex.search(line)]


class ListDirTool(Tool):
    name = "list_dir"
    description = "List a directory; directories end with '/'."
    parameters: ClassVar[dict[str, Any]] = {"type": "object", "properties": {"path": _DIR}}

    def __init__(self, max_entries: int = 1000) -> None:
        self.max_entries = max_entries

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        base = _base(args, env)
        if not base.is_dir():
            return ToolResult(content=f"no such directory: {base}", is_error=True)
        entries = sorted(f"{p.name}/" if p.is_dir() else p.name for p in base.iterdir())
        if not entries:
            return ToolResult(content="(empty directory)")
        return ToolResult(content=cap_lines(entries, self.max_entries, "entries"))
