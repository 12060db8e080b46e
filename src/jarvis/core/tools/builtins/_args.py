"""Argument checks shared by the built-in tools: each wrong argument gets one clear message.

Models send JSON, so a wrong type is common; the helpers raise `ToolArgumentError` naming the
argument, and `BuiltinTool.execute` turns that into an error result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jarvis.core.tools.base import ToolArgumentError

Schema = dict[str, Any]


def object_schema(required: dict[str, Schema], optional: dict[str, Schema] | None = None) -> Schema:
    """The JSON schema of a tool's arguments."""
    return {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "required": list(required),
        "additionalProperties": False,
    }


def text_arg(args: dict[str, Any], key: str, *, nonempty: bool = False) -> str:
    """A required string."""
    if key not in args or args[key] is None:
        raise ToolArgumentError(f"missing required argument '{key}'")
    return _as_text(args[key], key, nonempty=nonempty)


def optional_text_arg(args: dict[str, Any], key: str, *, nonempty: bool = False) -> str | None:
    value = args.get(key)
    return None if value is None else _as_text(value, key, nonempty=nonempty)


def int_arg(
    args: dict[str, Any], key: str, *, default: int, minimum: int = 0, maximum: int | None = None
) -> int:
    value = _as_number(args, key)
    if value is None:
        return default
    if value != int(value):
        raise ToolArgumentError(f"argument '{key}' must be a whole number, got {value}")
    return int(_in_range(value, key, minimum, maximum))


def number_arg(args: dict[str, Any], key: str, *, default: float, minimum: float = 0) -> float:
    value = _as_number(args, key)
    return default if value is None else _in_range(value, key, minimum, None)


def bool_arg(args: dict[str, Any], key: str, *, default: bool = False) -> bool:
    value = args.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ToolArgumentError(f"argument '{key}' must be true or false, got {_kind(value)}")
    return value


def path_arg(
    args: dict[str, Any], key: str, workspace: Path, *, default: str | None = None
) -> Path:
    """A path argument resolved against the workspace; `default` makes it optional."""
    raw = text_arg(args, key) if default is None else optional_text_arg(args, key) or default
    return resolve_path(workspace, raw)


def resolve_path(workspace: Path, raw: str) -> Path:
    """Relative paths are relative to the workspace and `~` expands; absolute paths stay (the
    approval gate, not the tool, decides where a tool may go)."""
    path = Path(raw).expanduser()
    return path if path.is_absolute() else workspace / path


def display_path(path: Path, workspace: Path) -> str:
    """The path as the model should pass it back: relative when inside the workspace."""
    try:
        return path.relative_to(workspace).as_posix() or "."
    except ValueError:
        return str(path)


def _as_text(value: Any, key: str, *, nonempty: bool) -> str:
    if not isinstance(value, str):
        raise ToolArgumentError(f"argument '{key}' must be a string, got {_kind(value)}")
    if nonempty and not value.strip():
        raise ToolArgumentError(f"argument '{key}' must not be empty")
    return value


def _as_number(args: dict[str, Any], key: str) -> float | None:
    value = args.get(key)
    if value is None:
        return None
    # bool is an int subclass in Python; `true` is never a count.
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ToolArgumentError(f"argument '{key}' must be a number, got {_kind(value)}")
    return float(value)


def _in_range(value: float, key: str, minimum: float, maximum: float | None) -> float:
    if value < minimum:
        raise ToolArgumentError(f"argument '{key}' must be at least {minimum:g}, got {value:g}")
    if maximum is not None and value > maximum:
        raise ToolArgumentError(f"argument '{key}' must be at most {maximum:g}, got {value:g}")
    return value


def _kind(value: Any) -> str:
    """The JSON name of a value's type, as the model wrote it."""
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string"}
    names |= {list: "an array", dict: "an object"}
    return names.get(type(value), type(value).__name__)
