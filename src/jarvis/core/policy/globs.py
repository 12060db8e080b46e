"""Path globs of rules, compiled to regular expressions. Pure.

API:
- `glob_regex(glob)`: the pattern's text (the boundary's secret patterns build on it).
- `compile_glob(glob)`: `*` and `?` stay inside one directory, `**` crosses any depth, nothing
  else is special; `compile_read_glob(glob)`: the same, and `dir/**` also covers `dir`.
- `GlobUnion(globs)`: many globs, each absolute or relative, as one alternation per kind, so a
  path is tried against all of them in one regex call instead of one call per rule.
  `first(absolute, relative)` is the position (in the given order) of the first glob that
  covers the path: an absolute glob matches `absolute`, a relative one `relative` (None: the
  path is outside the workspace and no relative glob covers it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence


def glob_regex(glob: str) -> str:
    """The regular expression (text) of a glob: `*`/`?` within a directory, `**` any depth."""
    parts: list[str] = []
    index = 0
    while index < len(glob):
        if glob.startswith("**/", index):
            parts.append("(?:.*/)?")
            index += 3
        elif glob.startswith("**", index):
            parts.append(".*")
            index += 2
        else:
            char = glob[index]
            parts.append("[^/]*" if char == "*" else "[^/]" if char == "?" else re.escape(char))
            index += 1
    return "".join(parts)


def compile_glob(glob: str) -> re.Pattern[str]:
    return re.compile(glob_regex(glob), re.DOTALL)


def compile_read_glob(glob: str) -> re.Pattern[str]:
    """`dir/**` also covers `dir` itself (the directory a walking tool is pointed at)."""
    if glob.endswith("/**"):
        return re.compile(compile_glob(glob[:-3]).pattern + "(?:/.*)?", re.DOTALL)
    return compile_glob(glob)


class GlobUnion:
    """`globs`: (compiled glob or None, absolute) pairs; None never matches."""

    __slots__ = ("_absolute", "_relative")

    def __init__(self, globs: Sequence[tuple[re.Pattern[str] | None, bool]]) -> None:
        self._absolute = _union([(i, g) for i, (g, absolute) in enumerate(globs) if absolute])
        self._relative = _union([(i, g) for i, (g, absolute) in enumerate(globs) if not absolute])

    def first(self, absolute: str, relative: str | None) -> int | None:
        found = None if self._absolute is None else _position(self._absolute.fullmatch(absolute))
        if self._relative is not None and relative is not None:
            other = _position(self._relative.fullmatch(relative))
            if other is not None and (found is None or other < found):
                found = other
        return found


def _union(globs: list[tuple[int, re.Pattern[str] | None]]) -> re.Pattern[str] | None:
    """An alternation tried left to right: under `fullmatch` the first alternative that matches
    the whole path wins, and its group names its position."""
    alternatives = [f"(?P<g{index}>{glob.pattern})" for index, glob in globs if glob is not None]
    return re.compile("|".join(alternatives), re.DOTALL) if alternatives else None


def _position(match: re.Match[str] | None) -> int | None:
    return None if match is None or match.lastgroup is None else int(match.lastgroup[1:])
