from __future__ import annotations

import asyncio
import os
from pathlib import Path
from textwrap import dedent

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.core.extensions import UserToolLoader, load_tools_dir
from jarvis.core.tools.base import Tool, ToolEnv, ToolSource
from jarvis.core.tools.registry import ToolRegistry


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dedent(text), encoding="utf-8")
    return path


def _tool_file(
    tools: Path, stem: str, body: str = 'return {"content": "ok"}', **consts: str
) -> Path:
    head = "".join(f"{key} = {value!r}\n" for key, value in consts.items())
    return _write(
        tools / f"{stem}.py",
        f"{head}\nasync def execute(tool_call_id, params, **kwargs):\n    {body}\n",
    )


async def _call(tool: Tool, args: dict[str, object] | None = None) -> ToolResult:
    ctx = ToolCallContext(session_id="s", agent_id="a", turn=1, abort=asyncio.Event())
    return await tool.execute("call-1", dict(args or {}), ToolEnv(Path("."), ctx))


def _only(tools: list[Tool]) -> Tool:
    assert len(tools) == 1, [t.name for t in tools]
    return tools[0]


async def test_constants_are_read_and_default_name_comes_from_the_stem(tmp_path: Path) -> None:
    _tool_file(tmp_path, "my_tool", TOOL_DESCRIPTION="does things")
    params = {"type": "object", "properties": {"q": {"type": "string"}}}
    _write(
        tmp_path / "named.py",
        f"""
        TOOL_NAME = "custom-name"
        TOOL_PARAMETERS = {params!r}
        async def execute(tool_call_id, params, **kwargs):
            return {{"content": "q=" + params["q"]}}
        """,
    )
    result = load_tools_dir(tmp_path)
    assert result.errors == []
    by_name = {tool.name: tool for tool in result.tools}
    assert set(by_name) == {"my-tool", "custom-name"}
    assert by_name["my-tool"].description == "does things"
    assert by_name["my-tool"].source == ToolSource("user", "my_tool.py")
    assert by_name["custom-name"].parameters == params
    assert (await _call(by_name["custom-name"], {"q": "x"})).content == "q=x"


async def test_dict_result_uses_content_and_anything_else_is_stringified(tmp_path: Path) -> None:
    _tool_file(tmp_path, "as_dict", 'return {"content": "from dict", "other": 1}')
    _tool_file(tmp_path, "as_int", "return 42")
    _tool_file(tmp_path, "as_list", "return [1, 2]")
    tools = {t.name: t for t in load_tools_dir(tmp_path).tools}
    assert (await _call(tools["as-dict"])).content == "from dict"
    assert (await _call(tools["as-int"])).content == "42"
    listed = await _call(tools["as-list"])
    assert (listed.content, listed.is_error) == ("[1, 2]", False)


async def test_an_exception_becomes_an_error_result_with_its_message(tmp_path: Path) -> None:
    _tool_file(tmp_path, "boom", 'raise RuntimeError("disk on fire")')
    result = await _call(_only(load_tools_dir(tmp_path).tools))
    assert result.is_error
    assert "disk on fire" in result.content


async def test_yaml_declaration_takes_execute_from_the_same_stem(tmp_path: Path) -> None:
    _tool_file(
        tmp_path,
        "my_tool",
        'return {"content": "ran " + params["query"]}',
        TOOL_NAME="ignored-name",
    )
    _write(
        tmp_path / "my_tool.yaml",
        """
        name: declared
        description: from yaml
        execution_mode: sequential
        parameters:
          type: object
          properties:
            query: {type: string}
          required: [query]
        """,
    )
    result = load_tools_dir(tmp_path)
    assert result.errors == []
    tool = _only(result.tools)  # the .py is not loaded a second time on its own
    assert (tool.name, tool.description, tool.execution_mode) == (
        "declared",
        "from yaml",
        "sequential",
    )
    assert tool.parameters["required"] == ["query"]
    assert (await _call(tool, {"query": "q"})).content == "ran q"


def test_yaml_without_py_is_not_registered_and_reported(tmp_path: Path) -> None:
    _write(tmp_path / "lonely.yaml", "name: lonely\ndescription: no code\n")
    result = load_tools_dir(tmp_path)
    assert result.tools == []
    [error] = result.errors
    assert error.file == tmp_path / "lonely.yaml"
    assert "lonely.py" in str(error)


def test_bad_yaml_and_bad_mode_are_reported(tmp_path: Path) -> None:
    _tool_file(tmp_path, "bad_yaml")
    _write(tmp_path / "bad_yaml.yaml", "name: [unclosed\n")
    _tool_file(tmp_path, "bad_mode")
    _write(tmp_path / "bad_mode.yaml", "name: m\nexecution_mode: sometimes\n")
    errors = {e.file.name: str(e) for e in load_tools_dir(tmp_path).errors}
    assert "bad YAML" in errors["bad_yaml.yaml"]
    assert "execution_mode" in errors["bad_mode.yaml"]


async def test_one_broken_file_never_stops_the_others(tmp_path: Path) -> None:
    _tool_file(tmp_path, "good")
    _write(tmp_path / "syntax.py", "def execute(:\n")
    _write(tmp_path / "imports.py", "import no_such_module_xyz\n")
    _write(tmp_path / "no_execute.py", "TOOL_NAME = 'x'\n")
    _write(tmp_path / "raises.py", "raise ValueError('at import')\n")
    result = load_tools_dir(tmp_path)
    assert [t.name for t in result.tools] == ["good"]
    errors = {e.file.name: e.reason for e in result.errors}
    assert errors.keys() == {"syntax.py", "imports.py", "no_execute.py", "raises.py"}
    assert "syntax error at line 1" in errors["syntax.py"]
    assert "no_such_module_xyz" in errors["imports.py"]
    assert "no execute" in errors["no_execute.py"]
    assert "at import" in errors["raises.py"]


async def test_a_file_that_breaks_keeps_its_last_good_version(tmp_path: Path) -> None:
    loader = UserToolLoader(tmp_path)
    path = _tool_file(tmp_path, "keep", 'return "v1"')
    first = _only(loader.load().tools)
    path.write_text("def execute(:\n", encoding="utf-8")
    again = loader.load()
    assert _only(again.tools) is first
    [error] = again.errors
    assert error.kept_last_good and "last good" in str(error)
    assert (await _call(first)).content == "v1"
    path.unlink()
    assert loader.load().tools == []  # deleting forgets the last good version too


async def test_same_size_resave_within_one_second_runs_the_new_code(tmp_path: Path) -> None:
    loader = UserToolLoader(tmp_path)
    path = _tool_file(tmp_path, "same", 'return "AAAA"')
    assert (await _call(_only(loader.load().tools))).content == "AAAA"
    before = path.stat()
    _tool_file(tmp_path, "same", 'return "BBBB"')
    # Same size and the same whole second: exactly what fools the bytecode cache.
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    assert (await _call(_only(loader.load().tools))).content == "BBBB"


def test_two_files_with_one_name_keep_the_first(tmp_path: Path) -> None:
    _tool_file(tmp_path, "a", TOOL_NAME="dup")
    _tool_file(tmp_path, "b", TOOL_NAME="dup")
    result = load_tools_dir(tmp_path)
    assert _only(result.tools).source.name == "a.py"
    [error] = result.errors
    assert "already defined by a.py" in str(error)


def test_hidden_and_helper_files_are_not_tools(tmp_path: Path) -> None:
    _tool_file(tmp_path, ".swap")
    _tool_file(tmp_path, "_helpers")
    _write(tmp_path / "notes.txt", "not a tool")
    assert load_tools_dir(tmp_path).tools == []
    assert load_tools_dir(tmp_path / "missing").tools == []


async def test_user_tools_override_builtins_of_the_same_name(tmp_path: Path) -> None:
    class Builtin(Tool):
        name = "read_file"

    registry = ToolRegistry()
    registry.register(Builtin())
    _tool_file(tmp_path, "read_file", 'return "mine"', TOOL_NAME="read_file")
    registry.replace_layer("user", load_tools_dir(tmp_path).tools)
    tool = registry.get("read_file")
    assert tool is not None and tool.source.kind == "user"
    registry.replace_layer("user", [])
    assert isinstance(registry.get("read_file"), Builtin)
