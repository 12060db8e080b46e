"""File tools: write_file, edit_file (exact replacement) and read_file (numbered line ranges).

Each judges the workspace boundary again when it touches the file (`_boundary.py`): secret
locations are refused, writes through a link leaving the workspace are refused, and files are
opened by their real path with `O_NOFOLLOW`.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, ClassVar

from jarvis.agent_layer.tools import ExecutionMode, ToolResult
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.builtins._args import (
    bool_arg,
    display_path,
    int_arg,
    object_schema,
    path_arg,
    text_arg,
)
from jarvis.core.tools.builtins._boundary import (
    SecretPlaces,
    open_nofollow,
    secret_problem,
    target,
    write_problem,
)
from jarvis.core.tools.builtins._output import SNIFF_BYTES, is_binary, truncate
from jarvis.core.tools.builtins._tool import BuiltinTool, failure

READ_LINES = 2000
READ_OUTPUT_CHARS = 30_000

_PATH = {"type": "string", "description": "File path, relative to the workspace or absolute."}
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC


class _FileTool(BuiltinTool):
    def __init__(self, *, secrets: SecretPlaces | None = None) -> None:
        self._secrets = secrets or SecretPlaces()

    def _checked_write(self, path: Path, env: ToolEnv) -> tuple[Path, str | None]:
        """The real path to write, or why not."""
        boundary = self._secrets.boundary(env.workspace)
        problem = write_problem(boundary, path, env.workspace, self.name)
        return Path(target(path, env.workspace).real), problem


class WriteFileTool(_FileTool):
    name = "write_file"
    description = (
        "Write text to a file, creating missing parent directories. An existing file is "
        "overwritten completely; to change part of a file use edit_file."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        required={
            "path": _PATH,
            "content": {"type": "string", "description": "The complete new file content."},
        }
    )
    execution_mode: ClassVar[ExecutionMode] = "sequential"
    destructive = True

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        requested = path_arg(args, "path", env.workspace)
        data = text_arg(args, "content").encode("utf-8")
        shown = display_path(requested, env.workspace)
        path, refused = self._checked_write(requested, env)
        if refused is not None:
            return failure(refused)
        if path.is_dir():
            return failure(f"{shown} is a directory; give a file path")
        blocker = _file_in_the_way(path)
        if blocker is not None:
            where = display_path(blocker, env.workspace)
            return failure(f"cannot write {shown}: {where} is a file, not a directory")
        existed = path.exists()
        path.parent.mkdir(parents=True, exist_ok=True)
        with open_nofollow(str(path), _WRITE, "wb") as handle:
            handle.write(data)
        state = "overwrote the file" if existed else "new file"
        return ToolResult(
            content=f"wrote {len(data):,} bytes to {shown} ({state})",
            details={"path": str(path), "bytes": len(data)},
        )


class EditFileTool(_FileTool):
    name = "edit_file"
    description = (
        "Replace an exact string in a text file. old_string must match the file exactly, "
        "whitespace and indentation included, and occur exactly once unless replace_all is "
        "true; include a few surrounding lines to make it unique. Read the file first."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        required={
            "path": _PATH,
            "old_string": {"type": "string", "description": "The exact text to replace."},
            "new_string": {"type": "string", "description": "The text to put in its place."},
        },
        optional={
            "replace_all": {
                "type": "boolean",
                "description": "Replace every occurrence instead of exactly one (default false).",
            }
        },
    )
    execution_mode: ClassVar[ExecutionMode] = "sequential"
    destructive = True

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        requested = path_arg(args, "path", env.workspace)
        old, new = text_arg(args, "old_string"), text_arg(args, "new_string")
        replace_all = bool_arg(args, "replace_all")
        shown = display_path(requested, env.workspace)
        path, refused = self._checked_write(requested, env)
        if refused is not None:
            return failure(refused)
        problem = _check_edit(path, shown, old, new)
        if problem is not None:
            return failure(problem)
        try:
            # Bytes in and out, so CRLF line endings and the rest of the file stay as they were.
            with open_nofollow(str(path), os.O_RDONLY, "rb") as handle:
                text = handle.read().decode("utf-8")
        except UnicodeDecodeError:
            return failure(f"{shown} is not UTF-8 text; edit_file only edits text files")
        count = text.count(old)
        if count == 0:
            return failure(
                f"old_string was not found in {shown}; read the file and copy the text exactly, "
                "including whitespace and indentation"
            )
        if count > 1 and not replace_all:
            return failure(
                f"old_string occurs {count} times in {shown}; add surrounding lines to make it "
                "unique, or set replace_all to true to replace every occurrence"
            )
        line = text.count("\n", 0, text.index(old)) + 1
        with open_nofollow(str(path), _WRITE, "wb") as handle:
            handle.write(text.replace(old, new, -1 if replace_all else 1).encode("utf-8"))
        replaced = count if replace_all else 1
        noun = "occurrence" if replaced == 1 else "occurrences"
        return ToolResult(
            content=f"replaced {replaced} {noun} in {shown} (first at line {line})",
            details={"path": str(path), "replacements": replaced},
        )


def _file_in_the_way(path: Path) -> Path | None:
    """The nearest existing ancestor when it is a file, so no directory can be made there."""
    for parent in path.parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def _check_edit(path: Path, shown: str, old: str, new: str) -> str | None:
    if path.is_dir():
        return f"{shown} is a directory, not a file"
    if not path.exists():
        return f"no such file: {shown}; use write_file to create it"
    if not old:
        return "old_string is empty; use write_file to create or overwrite a whole file"
    if old == new:
        return "old_string and new_string are the same; nothing would change"
    return None


@dataclass
class _Lines:
    chosen: list[str]
    total: int


class ReadFileTool(_FileTool):
    name = "read_file"
    description = (
        "Read a text file. Lines come numbered (line number, tab, text). offset is the first "
        f"line to read (1-based) and limit the number of lines (default {READ_LINES}); use "
        "them to page through long files."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        required={"path": _PATH},
        optional={
            "offset": {"type": "integer", "description": "First line to read, 1-based."},
            "limit": {
                "type": "integer",
                "description": f"How many lines to read (default {READ_LINES}).",
            },
        },
    )

    def __init__(
        self,
        *,
        line_limit: int = READ_LINES,
        output_chars: int = READ_OUTPUT_CHARS,
        secrets: SecretPlaces | None = None,
    ):
        super().__init__(secrets=secrets)
        self._line_limit = line_limit
        self._output_chars = output_chars

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        path = path_arg(args, "path", env.workspace)
        offset = int_arg(args, "offset", default=1, minimum=1)
        limit = int_arg(args, "limit", default=self._line_limit, minimum=1)
        shown = display_path(path, env.workspace)
        where = target(path, env.workspace)
        refused = secret_problem(self._secrets.boundary(env.workspace), where, shown, self.name)
        if refused is not None:
            return failure(refused)
        return await asyncio.to_thread(self._read, Path(where.real), shown, offset, limit)

    def _read(self, path: Path, shown: str, offset: int, limit: int) -> ToolResult:
        if path.is_dir():
            return failure(f"{shown} is a directory; use list_dir to see what it holds")
        if not path.exists():
            return failure(f"no such file: {shown}")
        with open_nofollow(str(path), os.O_RDONLY, "rb") as handle:
            head = handle.read(SNIFF_BYTES)
        if is_binary(head):
            size = path.stat().st_size
            return failure(f"{shown} is a binary file ({size:,} bytes); read_file reads text only")
        lines = _read_lines(path, offset, limit)
        if lines.total == 0:
            return ToolResult(content=f"{shown} is empty")
        if not lines.chosen:
            return failure(f"{shown} has {lines.total:,} lines; offset {offset} is past the end")
        return ToolResult(content=self._render(lines, offset))

    def _render(self, lines: _Lines, offset: int) -> str:
        numbered = [f"{offset + i:>6}\t{line}" for i, line in enumerate(lines.chosen)]
        body, shown = _fit_lines(numbered, self._output_chars)
        last = offset + shown - 1
        if last >= lines.total:
            return body
        return (
            f"{body}\n[showing lines {offset:,}-{last:,} of {lines.total:,}; "
            f"continue with offset={last + 1}]"
        )


def _read_lines(path: Path, offset: int, limit: int) -> _Lines:
    """The chosen range, and the file's line count without holding the whole file."""
    with open_nofollow(str(path), os.O_RDONLY, "r", encoding="utf-8", errors="replace") as handle:
        before = sum(1 for _ in islice(handle, offset - 1))
        chosen = [line.rstrip("\r\n") for line in islice(handle, limit)]
        after = sum(1 for _ in handle)
    return _Lines(chosen=chosen, total=before + len(chosen) + after)


def _fit_lines(lines: list[str], limit: int) -> tuple[str, int]:
    """Whole lines within `limit` characters and how many there are; a first line that alone is
    too long is cut with the usual notice."""
    size = 0
    for count, line in enumerate(lines):
        size += len(line) + 1
        if size > limit:
            if count == 0:
                return truncate(line, limit), 1
            return "\n".join(lines[:count]), count
    return "\n".join(lines), len(lines)
