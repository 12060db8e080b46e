"""What a file edit will change, as a unified diff for the approval window (seen before ALLOW).

Computed from the call's arguments and the file as it is now; bounded on every side (the file
read, the diff's lines and characters) so a huge file or content never bloats a request. Only
regular files are read: a FIFO or a device in the path must not block or stream into a request.
"""

from __future__ import annotations

import difflib
import stat
from pathlib import Path
from typing import Any

FILE_EDIT_TOOLS = ("write_file", "edit_file")
MAX_READ_BYTES = 1_000_000
MAX_DIFF_LINES = 400
MAX_DIFF_CHARS = 40_000


def file_change_diff(tool: str, args: dict[str, Any], workspace: Path) -> str | None:
    """The unified diff `tool` would make, or None when it cannot be known beforehand."""
    raw = args.get("path")
    if tool not in FILE_EDIT_TOOLS or not isinstance(raw, str) or not raw:
        return None
    target = Path(raw).expanduser()
    target = target if target.is_absolute() else workspace / target
    before = _current_text(target)
    if before is None:
        return None
    after = _after(tool, args, before)
    if after is None:
        return None
    return bounded_diff(before, after, raw)


def bounded_diff(before: str, after: str, name: str) -> str:
    lines = list(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"a/{name}",
            tofile=f"b/{name}",
        )
    )
    shown, size = [], 0
    for line in lines[:MAX_DIFF_LINES]:
        size += len(line)
        if size > MAX_DIFF_CHARS:
            break
        shown.append(line if line.endswith("\n") else line + "\n")
    text = "".join(shown)
    if len(shown) < len(lines):
        text += f"… {len(lines) - len(shown)} more diff lines\n"
    return text


def _current_text(target: Path) -> str | None:
    """The file's text ("" when it does not exist yet); None when it is not a readable file."""
    try:
        info = target.stat()
    except FileNotFoundError:
        return ""
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_READ_BYTES:
        return None
    try:
        return target.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _after(tool: str, args: dict[str, Any], before: str) -> str | None:
    if tool == "write_file":
        content = args.get("content")
        return content if isinstance(content, str) else None
    old, new = args.get("old_string"), args.get("new_string")
    if not isinstance(old, str) or not isinstance(new, str) or not old or old not in before:
        return None
    return before.replace(old, new, -1 if args.get("replace_all") is True else 1)
