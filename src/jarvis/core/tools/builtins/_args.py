"""Argument checks shared by the built-in tools: one clear message naming the bad argument."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jarvis.core.tools.base import ToolArgumentError as ArgError


def text_arg(args: dict[str, Any], key: str, *, required: bool = True, default: str = "") -> str:
    value = args.get(key)
    if value is None:
        if required:
            raise ArgError(f"missing required argument '{key}'")
        return default
    if not isinstance(value, str):
        raise ArgError(f"argument '{key}' must be a string, got {type(value).__name__}")
    return value


def int_arg(args: dict[str, Any], key: str, default: int | None, *, minimum: int = 0) -> int | None:
    value = args.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
        raise ArgError(f"argument '{key}' must be an integer")
    if value < minimum:
        raise ArgError(f"argument '{key}' must be at least {minimum}")
    return int(value)


def bool_arg(args: dict[str, Any], key: str, default: bool = False) -> bool:
    value = args.get(key, default)
    if not isinstance(value, bool):
        raise ArgError(f"argument '{key}' must be true or false")
    return value


def resolve_path(workspace: Path, raw: str) -> Path:
    """Relative paths are relative to the workspace; `~` expands."""
    path = Path(raw).expanduser()
    return path if path.is_absolute() else workspace / path


def display_path(path: Path, workspace: Path) -> str:
    try:
        return str(path.relative_to(workspace))
    except ValueError:
        return str(path)
