"""File tools: write_file, edit_file, read_file."""

from __future__ import annotations

from typing import Any, ClassVar

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.tools.base import Tool, ToolEnv
from jarvis.core.tools.builtins._args import (
    bool_arg,
    display_path,
    int_arg,
    resolve_path,
    text_arg,
)
from jarvis.core.tools.builtins._output import cap, is_binary

_PATH = {"type": "string", "description": "File path, relative to the workspace or absolute."}
READ_LINE_LIMIT = 2000


def _error(message: str) -> ToolResult:
    return ToolResult(content=message, is_error=True)


class WriteFileTool(Tool):
    name = "write_file"
    description = "Write text to a file, creating parent directories and overwriting the file."
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {"path": _PATH, "content": {"type": "string"}},
        "required": ["path", "content"],
    }
    execution_mode = "sequential"
    destructive = True

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        path = resolve_path(env.workspace, text_arg(args, "path"))
        content = text_arg(args, "content")
        if path.is_dir():
            return _error(f"{display_path(path, env.workspace)} is a directory")
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8")
        path.write_bytes(data)
        shown = display_path(path, env.workspace)
        return ToolResult(content=f"wrote {len(data):,} bytes to {shown}")


class EditFileTool(Tool):
    name = "edit_file"
    description = (
        "Replace an exact string in a file. old_string must occur exactly once unless "
        "replace_all is true; include surrounding lines to make it unique."
    )
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "path": _PATH,
            "old_string": {"type": "string"},
            "new_string": {"type": "string"},
            "replace_all": {"type": "boolean", "description": "Replace every occurrence."},
        },
        "required": ["path", "old_string", "new_string"],
    }
    execution_mode = "sequential"
    destructive = True

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        path = resolve_path(env.workspace, text_arg(args, "path"))
        old, new = text_arg(args, "old_string"), text_arg(args, "new_string")
        replace_all = bool_arg(args, "replace_all")
        shown = display_path(path, env.workspace)
        if not path.is_file():
            return _error(f"no such file: {shown}")
        if not old:
            return _error("old_string is empty; use write_file to create or overwrite a file")
        text = path.read_text(encoding="utf-8")
        count = text.count(old)
        if count == 0:
            return _error(f"old_string was not found in {shown}; read the file and copy it exactly")
        if count > 1 and not replace_all:
            return _error(
                f"old_string occurs {count} times in {shown}; add surrounding context "
                "to make it unique, or set replace_all to true"
            )
        path.write_text(
            text.replace(old, new) if replace_all else text.replace(old, new, 1), encoding="utf-8"
        )
        replaced = count if replace_all else 1
        return ToolResult(content=f"replaced {replaced} occurrence(s) in {shown}")


class ReadFileTool(Tool):
    name = "read_file"
    description = "Read a text file with line numbers; offset (1-based) and limit pick a range."
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "path": _PATH,
            "offset": {"type": "integer", "description": "First line to read (1-based)."},
            "limit": {"type": "integer", "description": f"Lines to read ({READ_LINE_LIMIT})."},
        },
        "required": ["path"],
    }

    def __init__(self, output_cap: int = 30_000) -> None:
        self.output_cap = output_cap

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        path = resolve_path(env.workspace, text_arg(args, "path"))
        offset = int_arg(args, "offset", 1, minimum=1) or 1
        limit = int_arg(args, "limit", READ_LINE_LIMIT, minimum=1) or READ_LINE_LIMIT
        shown = display_path(path, env.workspace)
        if path.is_dir():
            return _error(f"{shown} is a directory; use list_dir")
        if not path.is_file():
            return _error(f"no such file: {shown}")
        data = path.read_bytes()
        if is_binary(data[:8192]):
            return _error(f"{shown} is a binary file ({len(data):,} bytes)")
        lines = data.decode("utf-8", errors="replace").splitlines()
        chosen = lines[offset - 1 : offset - 1 + limit]
        if not chosen:
            return ToolResult(content=f"{shown} has {len(lines)} lines; nothing at line {offset}")
        body = "\n".join(f"{offset + i:>6}\t{line}" for i, line in enumerate(chosen))
        more = offset - 1 + len(chosen) < len(lines)
        note = f"\n[lines {offset}-{offset + len(chosen) - 1} of {len(lines)}]" if more else ""
        return ToolResult(content=cap(body, self.output_cap) + note)
