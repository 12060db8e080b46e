"""Finding things: glob (newest first), grep (regex, skips binaries) and list_dir.

They never show a secret location (`.env`, keys, `$JARVIS_HOME`, ...): a secret `path` is refused,
and secret files met on the way are skipped, as are files reached through a link whose target
leaves both the searched directory and the workspace; the result says how many were skipped.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.policy.boundary import Boundary
from jarvis.core.policy.glob_scope import glob_pattern_problem
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.builtins._args import (
    bool_arg,
    display_path,
    object_schema,
    optional_text_arg,
    path_arg,
    text_arg,
)
from jarvis.core.tools.builtins._boundary import (
    SecretPlaces,
    secret_problem,
    skipped_notice,
    target,
)
from jarvis.core.tools.builtins._output import (
    SNIFF_BYTES,
    cap_items,
    clip_line,
    is_binary,
    truncate,
)
from jarvis.core.tools.builtins._tool import BuiltinTool, failure

MAX_RESULTS = 500
MAX_ENTRIES = 1000
OUTPUT_CHARS = 30_000
_MATCH_LINE_CHARS = 500

# Version-control internals, dependencies and caches: noise in nearly every search. Passing a
# path inside one of them searches it anyway, since only directories below `path` are skipped.
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", ".venv", "node_modules", "__pycache__"})
_SKIPPED = ", ".join(sorted(SKIPPED_DIRS))

_DIR = {
    "type": "string",
    "description": "Directory to search, relative to the workspace or absolute (default: the "
    "workspace).",
}


class _Fence:
    """Which files a walk may show; counts what it skipped."""

    def __init__(self, boundary: Boundary, base: Path, workspace: Path) -> None:
        self._boundary = boundary
        self._workspace = workspace
        self._root = target(base, workspace).real
        self.secret = 0
        self.outside = 0

    def allows(self, path: Path) -> bool:
        where = target(path, self._workspace)
        verdict = self._boundary.walk_entry(where.lexical, where.real, self._root)
        if verdict == "secret":
            self.secret += 1
        elif verdict == "outside":
            self.outside += 1
        return verdict == "ok"

    def hides(self, path: Path) -> bool:
        """A secret entry (counted); used where only names are shown."""
        where = target(path, self._workspace)
        if self._boundary.secret(where.lexical) or self._boundary.secret(where.real):
            self.secret += 1
            return True
        return False

    def notice(self, noun: str = "file") -> str:
        return skipped_notice(self.secret, self.outside, noun)


class _SearchTool(BuiltinTool):
    _secrets: SecretPlaces

    def _fence(self, base: Path, env: ToolEnv) -> tuple[_Fence, str | None]:
        """The walk's filter, or why `base` itself may not be read."""
        boundary = self._secrets.boundary(env.workspace)
        shown = display_path(base, env.workspace)
        problem = secret_problem(boundary, target(base, env.workspace), shown, self.name)
        return _Fence(boundary, base, env.workspace), problem


def _base_dir(args: dict[str, Any], env: ToolEnv) -> tuple[Path, str | None]:
    """The `path` argument as a directory, or why it is not one."""
    base = path_arg(args, "path", env.workspace, default=".")
    shown = display_path(base, env.workspace)
    if not base.exists():
        return base, f"no such directory: {shown}"
    if not base.is_dir():
        return base, f"not a directory: {shown}"
    return base, None


def _skipped(path: Path, base: Path) -> bool:
    return any(part in SKIPPED_DIRS for part in path.relative_to(base).parts[:-1])


class GlobTool(_SearchTool):
    name = "glob"
    description = (
        "Find files whose path matches a glob pattern, e.g. '**/*.py' (any depth) or "
        "'src/*.ts'. Returns paths newest first (by modification time), relative to the "
        f"workspace. Skips {_SKIPPED} unless path points inside one."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        required={"pattern": {"type": "string", "description": "Glob pattern, relative to path."}},
        optional={"path": _DIR},
    )

    def __init__(
        self, *, max_results: int = MAX_RESULTS, secrets: SecretPlaces | None = None
    ) -> None:
        self._max_results = max_results
        self._secrets = secrets or SecretPlaces()

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        pattern = text_arg(args, "pattern", nonempty=True)
        refused = glob_pattern_problem(pattern)  # the gate blocks the same patterns
        if refused is not None:
            return failure(refused)
        base, problem = _base_dir(args, env)
        if problem is not None:
            return failure(problem)
        fence, refused = self._fence(base, env)
        if refused is not None:
            return failure(refused)
        found = await asyncio.to_thread(_newest_first, base, pattern, fence)
        if not found:
            return ToolResult(content=f"no files match {pattern}{fence.notice()}")
        names = [display_path(path, env.workspace) for path in found]
        return ToolResult(content=cap_items(names, self._max_results, "files") + fence.notice())


def _newest_first(base: Path, pattern: str, fence: _Fence) -> list[Path]:
    dated: list[tuple[float, Path]] = []
    for path in base.glob(pattern):
        if _skipped(path, base) or not fence.allows(path):
            continue
        try:
            if path.is_file():
                dated.append((path.stat().st_mtime, path))
        except OSError:
            continue  # vanished or unreadable since the directory was listed
    dated.sort(key=lambda item: item[0], reverse=True)
    return [path for _, path in dated]


class GrepTool(_SearchTool):
    name = "grep"
    description = (
        "Search file contents with a Python regular expression, recursively from path (a "
        "directory or one file). Prints one match a line as path:line_number:text. Binary "
        f"files are skipped, and so are {_SKIPPED} unless path points inside one."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        required={"pattern": {"type": "string", "description": "Python regular expression."}},
        optional={
            "path": {
                "type": "string",
                "description": "Directory or file to search (default: the workspace).",
            },
            "glob": {
                "type": "string",
                "description": "Only search files whose path ends matching this glob, e.g. "
                "'*.py' or 'src/*.ts'.",
            },
            "ignore_case": {"type": "boolean", "description": "Case-insensitive (default false)."},
        },
    )

    def __init__(
        self,
        *,
        max_matches: int = MAX_RESULTS,
        output_chars: int = OUTPUT_CHARS,
        secrets: SecretPlaces | None = None,
    ) -> None:
        self._max_matches = max_matches
        self._output_chars = output_chars
        self._secrets = secrets or SecretPlaces()

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        flags = re.IGNORECASE if bool_arg(args, "ignore_case") else 0
        pattern = text_arg(args, "pattern", nonempty=True)
        try:
            regex = re.compile(pattern, flags)
        except re.error as exc:
            return failure(f"invalid regular expression {pattern!r}: {exc}")
        file_glob = optional_text_arg(args, "glob", nonempty=True)
        where = path_arg(args, "path", env.workspace, default=".")
        if not where.exists():
            return failure(f"no such file or directory: {display_path(where, env.workspace)}")
        fence, refused = self._fence(where, env)
        if refused is not None:
            return failure(refused)
        search = _Search(regex, env.workspace, self._max_matches + 1, env.call.abort.is_set)
        matches = await asyncio.to_thread(search.run, where, file_glob, fence)
        if not matches:
            return ToolResult(content="no matches" + fence.notice())
        return ToolResult(content=self._render(matches) + fence.notice())

    def _render(self, matches: list[str]) -> str:
        body = truncate("\n".join(matches[: self._max_matches]), self._output_chars)
        if len(matches) <= self._max_matches:
            return body
        # The search stops here rather than reading the whole tree to count the rest.
        return (
            f"{body}\n[truncated: showing the first {self._max_matches:,} matches; narrow the "
            "pattern, path or glob to see the rest]"
        )


class _Search:
    """One grep run, off the event loop; it stops at `limit` matches or when the turn aborts."""

    def __init__(
        self, regex: re.Pattern[str], workspace: Path, limit: int, aborted: Callable[[], bool]
    ) -> None:
        self._regex = regex
        self._workspace = workspace
        self._limit = limit
        self._aborted = aborted
        self.matches: list[str] = []

    def run(self, target: Path, file_glob: str | None, fence: _Fence) -> list[str]:
        files = [target] if target.is_file() else _walk_files(target, file_glob)
        for path in files:
            if len(self.matches) >= self._limit or self._aborted():
                break
            if fence.allows(path):
                self._search_file(path)
        return self.matches[: self._limit]

    def _search_file(self, path: Path) -> None:
        try:
            with path.open("rb") as handle:
                if is_binary(handle.read(SNIFF_BYTES)):
                    return
            with path.open(encoding="utf-8", errors="replace") as handle:
                self._search_lines(handle, display_path(path, self._workspace))
        except OSError:
            return  # unreadable files are skipped like binaries, not fatal to the search

    def _search_lines(self, lines: Iterator[str], shown: str) -> None:
        for number, line in enumerate(lines, 1):
            text = line.rstrip("\r\n")
            if self._regex.search(text):
                self.matches.append(f"{shown}:{number}:{clip_line(text, _MATCH_LINE_CHARS)}")
                if len(self.matches) >= self._limit:
                    return


def _walk_files(base: Path, file_glob: str | None) -> Iterator[Path]:
    """Files below `base` in a stable order, never descending into skipped directories."""
    # PurePath.match is anchored at the end; a leading '**/' means the same thing there.
    suffix = file_glob.removeprefix("**/") if file_glob else None
    for root, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            path = Path(root, name)
            relative = PurePosixPath(path.relative_to(base).as_posix())
            if suffix is None or relative.match(suffix):
                yield path


class ListDirTool(_SearchTool):
    name = "list_dir"
    description = (
        "List the entries of one directory (not recursive), sorted by name; directories end "
        "with '/'."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        required={},
        optional={
            "path": {"type": "string", "description": "Directory to list (default: the workspace)."}
        },
    )

    def __init__(
        self, *, max_entries: int = MAX_ENTRIES, secrets: SecretPlaces | None = None
    ) -> None:
        self._max_entries = max_entries
        self._secrets = secrets or SecretPlaces()

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        base, problem = _base_dir(args, env)
        if problem is not None:
            return failure(problem)
        fence, refused = self._fence(base, env)
        if refused is not None:
            return failure(refused)
        entries = await asyncio.to_thread(_entries, base, fence)
        notice = fence.notice("entry")
        if not entries:
            return ToolResult(content=f"{display_path(base, env.workspace)} is empty{notice}")
        return ToolResult(content=cap_items(entries, self._max_entries, "entries") + notice)


def _entries(base: Path, fence: _Fence) -> list[str]:
    # Names only, so a link leading outside is listed (nothing is read through it).
    shown = (p for p in base.iterdir() if not fence.hides(p))
    return sorted(f"{p.name}/" if p.is_dir() else p.name for p in shown)
