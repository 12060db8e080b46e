"""What a `glob` pattern may reach: one judgement for the gate and the glob tool (issue 23).

A pattern is relative to the tool's `path` and stays under it: an absolute pattern or one that
climbs with `..` is refused by the tool *and* blocked by the gate with the same words, so the
gate never says "no approval needed" for a call the tool would refuse (or the other way round).
The directory goes in `path`, which the gate judges like any file tool's path.
"""

from __future__ import annotations

import posixpath
from typing import Any

GLOB_TOOLS = frozenset({"glob"})


def glob_pattern_problem(pattern: str) -> str | None:
    """Why `pattern` is refused, or None. Judged on the text as the tool globs it (POSIX)."""
    if posixpath.isabs(pattern):
        return "pattern must be relative; put the directory in the path argument"
    if ".." in pattern.split("/"):
        return "pattern must not climb out with '..'; put the directory in path"
    return None


def call_pattern_problem(tool: str, args: dict[str, Any]) -> str | None:
    """The gate's side: the same judgement on a call's arguments."""
    pattern = args.get("pattern")
    if tool not in GLOB_TOOLS or not isinstance(pattern, str):
        return None
    return glob_pattern_problem(pattern)
