"""The built-in set: names, modes, schemas, settings, and error results instead of raises."""

from __future__ import annotations

import asyncio
import errno
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.builtins import BuiltinToolSettings, builtin_tools
from jarvis.core.tools.builtins._tool import BuiltinTool, describe_os_error

NAMES = [
    "bash",
    "write_file",
    "edit_file",
    "read_file",
    "glob",
    "grep",
    "list_dir",
    "web_search",
    "web_fetch",
]


def _env(workspace: Path) -> ToolEnv:
    return ToolEnv(workspace=workspace, call=ToolCallContext("s", "main", 1, asyncio.Event()))


def test_the_seed_table_in_order() -> None:
    assert [tool.name for tool in builtin_tools()] == NAMES


def test_modes_and_destructive_flags() -> None:
    tools = {tool.name: tool for tool in builtin_tools()}
    sequential = {name for name, tool in tools.items() if tool.execution_mode == "sequential"}
    assert sequential == {"bash", "write_file", "edit_file"}
    assert {name for name, tool in tools.items() if tool.destructive} == {"write_file", "edit_file"}


@pytest.mark.parametrize("name", NAMES)
def test_schemas_are_well_formed(name: str) -> None:
    tool = next(tool for tool in builtin_tools() if tool.name == name)
    schema = tool.spec().parameters
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert set(schema["required"]) <= set(schema["properties"])
    for prop in schema["properties"].values():
        assert prop["type"] in {"string", "integer", "number", "boolean"} and prop["description"]
    assert len(tool.description) > 40


def test_settings_reach_the_tools(tmp_path: Path) -> None:
    settings = BuiltinToolSettings(bash_timeout_sec=5, brave_api_key=SecretStr("k"))
    tools: dict[str, Any] = {tool.name: tool for tool in builtin_tools(settings)}
    assert tools["bash"]._default_timeout == 5
    assert tools["web_search"].engine == "Brave Search"
    assert {tool.name: tool for tool in builtin_tools()}["web_search"].engine == "DuckDuckGo"


def test_settings_read_from_the_environment_shape() -> None:
    settings = BuiltinToolSettings.model_validate(
        {"brave_api_key": "secret", "bash_output_chars": 2000}
    )
    assert "secret" not in repr(settings) and settings.bash_output_chars == 2000


@pytest.mark.parametrize("name", NAMES)
async def test_arguments_that_are_not_an_object_are_an_error_result(
    name: str, tmp_path: Path
) -> None:
    tool = next(tool for tool in builtin_tools() if tool.name == name)
    result = await tool.execute("c", ["not", "an", "object"], _env(tmp_path))  # type: ignore[arg-type]
    assert (
        result.is_error
        and result.content == f"invalid arguments for {name}: expected a JSON object"
    )


@pytest.mark.parametrize("name", [n for n in NAMES if n != "list_dir"])
async def test_missing_required_arguments_are_an_error_result(name: str, tmp_path: Path) -> None:
    tool = next(tool for tool in builtin_tools() if tool.name == name)
    result = await tool.execute("c", {}, _env(tmp_path))
    assert result.is_error and result.content.startswith(f"invalid arguments for {name}: missing")


class _Failing(BuiltinTool):
    name = "failing"

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        raise PermissionError(errno.EACCES, "Permission denied", str(env.workspace / "a/b.txt"))


async def test_os_errors_become_error_results(tmp_path: Path) -> None:
    result = await _Failing().execute("c", {}, _env(tmp_path))
    assert result.is_error and result.content == "failing failed: permission denied: a/b.txt"


def test_describe_os_error(tmp_path: Path) -> None:
    assert describe_os_error(OSError(errno.ENOSPC, "No space left on device"), tmp_path) == (
        "no space left on device"
    )
    assert describe_os_error(FileNotFoundError(errno.ENOENT, "No such file", "/x"), tmp_path) == (
        "no such file: /x"
    )
