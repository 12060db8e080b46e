"""Argument helpers: values in, values or one clear message naming the argument out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jarvis.core.tools.base import ToolArgumentError
from jarvis.core.tools.builtins._args import (
    bool_arg,
    display_path,
    int_arg,
    number_arg,
    object_schema,
    optional_text_arg,
    path_arg,
    resolve_path,
    text_arg,
)


@pytest.mark.parametrize(
    ("args", "expected"),
    [({"k": "v"}, "v"), ({"k": ""}, ""), ({"k": "  "}, "  ")],
)
def test_text_arg_values(args: dict[str, Any], expected: str) -> None:
    assert text_arg(args, "k") == expected


@pytest.mark.parametrize(
    ("args", "nonempty", "message"),
    [
        ({}, False, "missing required argument 'k'"),
        ({"k": None}, False, "missing required argument 'k'"),
        ({"k": 3}, False, "argument 'k' must be a string, got a number"),
        ({"k": ["a"]}, False, "argument 'k' must be a string, got an array"),
        ({"k": {"a": 1}}, False, "argument 'k' must be a string, got an object"),
        ({"k": True}, False, "argument 'k' must be a string, got a boolean"),
        ({"k": " \n"}, True, "argument 'k' must not be empty"),
    ],
)
def test_text_arg_errors(args: dict[str, Any], nonempty: bool, message: str) -> None:
    with pytest.raises(ToolArgumentError, match=f"^{message}$"):
        text_arg(args, "k", nonempty=nonempty)


def test_optional_text_arg() -> None:
    assert optional_text_arg({}, "k") is None
    assert optional_text_arg({"k": "x"}, "k") == "x"
    with pytest.raises(ToolArgumentError, match="must be a string"):
        optional_text_arg({"k": 1}, "k")


@pytest.mark.parametrize(
    ("args", "expected"),
    [({}, 7), ({"n": None}, 7), ({"n": 3}, 3), ({"n": 3.0}, 3), ({"n": 10}, 10)],
)
def test_int_arg_values(args: dict[str, Any], expected: int) -> None:
    assert int_arg(args, "n", default=7, minimum=1, maximum=10) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("3", "argument 'n' must be a number, got a string"),
        (True, "argument 'n' must be a number, got a boolean"),
        (2.5, "argument 'n' must be a whole number, got 2.5"),
        (0, "argument 'n' must be at least 1, got 0"),
        (11, "argument 'n' must be at most 10, got 11"),
    ],
)
def test_int_arg_errors(value: Any, message: str) -> None:
    with pytest.raises(ToolArgumentError, match=f"^{message}$"):
        int_arg({"n": value}, "n", default=7, minimum=1, maximum=10)


def test_number_arg() -> None:
    assert number_arg({}, "t", default=30.0) == 30.0
    assert number_arg({"t": 1.5}, "t", default=30.0) == 1.5
    assert number_arg({"t": 2}, "t", default=30.0) == 2.0
    with pytest.raises(ToolArgumentError, match=r"'t' must be at least 0\.5"):
        number_arg({"t": 0.1}, "t", default=30.0, minimum=0.5)


def test_bool_arg() -> None:
    assert bool_arg({}, "b") is False
    assert bool_arg({}, "b", default=True) is True
    assert bool_arg({"b": True}, "b") is True
    with pytest.raises(ToolArgumentError, match=r"^argument 'b' must be true or false, got a str"):
        bool_arg({"b": "true"}, "b")


def test_paths_resolve_against_the_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", "/home/someone")
    assert resolve_path(tmp_path, "a/b.txt") == tmp_path / "a/b.txt"
    assert resolve_path(tmp_path, "/etc/hosts") == Path("/etc/hosts")
    assert resolve_path(tmp_path, "~/x") == Path("/home/someone/x")
    assert path_arg({}, "path", tmp_path, default=".") == tmp_path / "."
    assert path_arg({"path": ""}, "path", tmp_path, default=".") == tmp_path / "."
    with pytest.raises(ToolArgumentError, match="missing required argument 'path'"):
        path_arg({}, "path", tmp_path)


def test_display_path_is_relative_inside_the_workspace(tmp_path: Path) -> None:
    assert display_path(tmp_path / "a" / "b.txt", tmp_path) == "a/b.txt"
    assert display_path(tmp_path, tmp_path) == "."
    assert display_path(Path("/etc/hosts"), tmp_path) == "/etc/hosts"


def test_object_schema() -> None:
    schema = object_schema(required={"a": {"type": "string"}}, optional={"b": {"type": "integer"}})
    assert schema == {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": False,
    }
