"""Built-in tools, run for real in a temp workspace."""

from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.core.tools.base import Tool, ToolEnv
from jarvis.core.tools.builtins import builtin_tools
from jarvis.core.tools.builtins.shell import BashTool
from jarvis.core.tools.builtins.web import WebFetchTool, WebSearchTool
from jarvis.core.tools.executor import GatedTools
from jarvis.core.tools.registry import ToolRegistry
from jarvis.model_layer import ToolCall
from tests.support.scripted_http import Scripted, ScriptedServer

TOOLS = {tool.name: tool for tool in builtin_tools()}


def env(workspace: Path, abort: asyncio.Event | None = None) -> ToolEnv:
    return ToolEnv(
        workspace=workspace, call=ToolCallContext("s", "main", 1, abort or asyncio.Event())
    )


async def run(tool: str | Tool, workspace: Path, **args: Any) -> ToolResult:
    chosen = TOOLS[tool] if isinstance(tool, str) else tool
    return await chosen.execute("c1", args, env(workspace))


async def test_bash_reports_exit_code_stdout_and_stderr(tmp_path: Path) -> None:
    ok = await run("bash", tmp_path, command="echo out; echo err >&2")
    assert not ok.is_error and "exit code 0" in ok.content
    assert "stdout:\nout" in ok.content and "stderr:\nerr" in ok.content
    failed = await run("bash", tmp_path, command="exit 3")
    assert failed.is_error and "exit code 3" in failed.content


async def test_bash_runs_in_the_workspace(tmp_path: Path) -> None:
    result = await run("bash", tmp_path, command="pwd")
    assert str(tmp_path) in result.content


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().split()[2] != "Z"


async def test_bash_timeout_kills_the_whole_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    started = time.monotonic()
    result = await run(
        "bash", tmp_path, command=f"sleep 60 & echo $! > {pid_file}; sleep 30", timeout=1
    )
    assert time.monotonic() - started < 10
    assert result.is_error and "timed out after 1 s" in result.content
    child = int(pid_file.read_text())
    await asyncio.sleep(0.1)
    assert not _alive(child)


async def test_background_child_does_not_hold_a_finished_command(tmp_path: Path) -> None:
    pid_file = tmp_path / "bg.pid"
    started = time.monotonic()
    result = await run("bash", tmp_path, command=f"sleep 60 & echo $! > {pid_file}; echo done")
    assert time.monotonic() - started < 5 and "done" in result.content
    await asyncio.sleep(0.1)
    assert not _alive(int(pid_file.read_text()))


async def test_bash_abort_kills_the_command(tmp_path: Path) -> None:
    abort = asyncio.Event()
    asyncio.get_running_loop().call_later(0.2, abort.set)
    started = time.monotonic()
    result = await TOOLS["bash"].execute("c", {"command": "sleep 30"}, env(tmp_path, abort))
    assert time.monotonic() - started < 5
    assert result.is_error and "aborted" in result.content


async def test_bash_cancellation_kills_the_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "p.pid"
    task = asyncio.create_task(run("bash", tmp_path, command=f"echo $$ > {pid_file}; sleep 30"))
    await asyncio.sleep(0.3)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0.1)
    assert not _alive(int(pid_file.read_text()))


async def test_bash_output_is_capped_with_a_notice(tmp_path: Path) -> None:
    result = await run(BashTool(output_cap=1000), tmp_path, command="yes x | head -c 5000")
    assert "[truncated: showing 1,000 of 5,000 characters]" in result.content


async def test_write_file_creates_parents_and_overwrites(tmp_path: Path) -> None:
    await run("write_file", tmp_path, path="a/b/c.txt", content="one")
    result = await run("write_file", tmp_path, path="a/b/c.txt", content="two")
    assert (tmp_path / "a/b/c.txt").read_text() == "two" and "3 bytes" in result.content


@pytest.mark.parametrize(
    ("text", "old", "replace_all", "expected", "error"),
    [
        ("a b c", "b", False, "a X c", None),
        ("a b b", "b", False, None, "occurs 2 times"),
        ("a b b", "b", True, "a X X", None),
        ("a b c", "z", False, None, "not found"),
        ("a b c", "", False, None, "empty"),
    ],
)
async def test_edit_file(
    tmp_path: Path, text: str, old: str, replace_all: bool, expected: str | None, error: str | None
) -> None:
    (tmp_path / "f.txt").write_text(text)
    result = await run(
        "edit_file", tmp_path, path="f.txt", old_string=old, new_string="X", replace_all=replace_all
    )
    if error:
        assert result.is_error and error in result.content
        assert (tmp_path / "f.txt").read_text() == text
    else:
        assert not result.is_error and (tmp_path / "f.txt").read_text() == expected


async def test_edit_missing_file(tmp_path: Path) -> None:
    result = await run("edit_file", tmp_path, path="nope.txt", old_string="a", new_string="b")
    assert result.is_error and "no such file" in result.content


async def test_read_file_line_ranges(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("\n".join(f"line {i}" for i in range(1, 11)))
    result = await run("read_file", tmp_path, path="f.txt", offset=3, limit=2)
    assert re.findall(r"line \d+", result.content) == ["line 3", "line 4"]
    assert "[lines 3-4 of 10]" in result.content
    (tmp_path / "bin").write_bytes(b"\x00\x01")
    assert (await run("read_file", tmp_path, path="bin")).is_error
    assert (await run("read_file", tmp_path, path=".")).is_error


async def test_glob_is_newest_first(tmp_path: Path) -> None:
    for i, name in enumerate(["old.py", "mid.py", "new.py"]):
        path = tmp_path / name
        path.write_text("x")
        os.utime(path, (1000 + i, 1000 + i))
    result = await run("glob", tmp_path, pattern="*.py")
    assert result.content.splitlines() == ["new.py", "mid.py", "old.py"]


async def test_grep_skips_binaries_and_reports_bad_regex(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\nworld\nhello again")
    (tmp_path / "b.bin").write_bytes(b"hello\x00binary")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "c").write_text("hello")
    result = await run("grep", tmp_path, pattern="hel+o")
    assert result.content.splitlines() == ["a.txt:1:hello", "a.txt:3:hello again"]
    bad = await run("grep", tmp_path, pattern="(unclosed")
    assert bad.is_error and "invalid regular expression" in bad.content


async def test_list_dir_marks_directories(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "f").write_text("")
    assert (await run("list_dir", tmp_path)).content.splitlines() == ["f", "sub/"]


async def test_wrong_arguments_are_clear_error_results(tmp_path: Path) -> None:
    registry = ToolRegistry()
    registry.register_all(builtin_tools())
    tools = GatedTools(registry, tmp_path)
    ctx = ToolCallContext("s", "main", 1, asyncio.Event())
    missing = await tools.execute(ToolCall(id="1", name="bash", arguments={}), ctx)
    assert missing.is_error and "missing required argument 'command'" in missing.content
    wrong = await tools.execute(ToolCall(id="2", name="read_file", arguments={"path": 3}), ctx)
    assert wrong.is_error and "'path' must be a string" in wrong.content
    bad_json = await tools.execute(ToolCall(id="3", name="bash", arguments_error="x"), ctx)
    assert bad_json.is_error and "not valid JSON" in bad_json.content
    unknown = await tools.execute(ToolCall(id="4", name="nope"), ctx)
    assert unknown.is_error and "unknown tool" in unknown.content


class _GetServer(ScriptedServer):
    """The scripted server answering GET as well."""

    def __init__(self) -> None:
        super().__init__()
        handler = self.httpd.RequestHandlerClass

        def do_get(inner: Any) -> None:
            inner.headers["Content-Length"] = "0"
            handler.do_POST(inner)  # type: ignore[attr-defined]

        handler.do_GET = do_get  # type: ignore[attr-defined]


@pytest.fixture
def web() -> Any:
    with _GetServer() as server:
        yield server


async def test_web_fetch_extracts_main_text(tmp_path: Path, web: _GetServer) -> None:
    page = (
        "<html><head><script>var x=1</script></head><body><nav>menu</nav><article>"
        + "<p>Jarvis keeps a human in charge of every risky action. " * 5
        + "</p></article></body></html>"
    )
    web.add(Scripted(content_type="text/html", chunks=[page.encode()]))
    result = await run(WebFetchTool(), tmp_path, url=f"{web.url}/page")
    assert "human in charge" in result.content and "var x" not in result.content


async def test_web_fetch_non_text_and_size_limit(tmp_path: Path, web: _GetServer) -> None:
    web.add(
        Scripted(content_type="image/png", chunks=[b"\x89PNG" + b"0" * 100]),
        Scripted(content_type="text/plain", chunks=[b"y" * 50_000]),
    )
    image = await run(WebFetchTool(), tmp_path, url=f"{web.url}/x.png")
    assert image.content == "not text: image/png, 104 bytes"
    big = await run(WebFetchTool(max_bytes=10_000), tmp_path, url=f"{web.url}/big")
    assert "[download stopped at 10,000 bytes]" in big.content


async def test_web_fetch_errors(tmp_path: Path, web: _GetServer) -> None:
    web.add(Scripted(status=404, content_type="text/plain", chunks=[b"gone"]))
    missing = await run(WebFetchTool(), tmp_path, url=f"{web.url}/missing")
    assert missing.is_error and "HTTP 404" in missing.content
    assert (await run(WebFetchTool(), tmp_path, url="file:///etc/passwd")).is_error


async def test_brave_search_against_a_local_api(tmp_path: Path, web: _GetServer) -> None:
    body = {
        "web": {
            "results": [
                {
                    "title": "Jarvis",
                    "url": "https://j.example",
                    "description": "an <strong>assistant</strong>",
                }
            ]
        }
    }
    import json

    web.add(Scripted(content_type="application/json", chunks=[json.dumps(body).encode()]))
    tool = WebSearchTool("key-1", endpoint=f"{web.url}/search")
    result = await run(tool, tmp_path, query="jarvis")
    assert result.content == "1. Jarvis\nhttps://j.example\nan assistant"
    assert web.received[0].headers["x-subscription-token"] == "key-1"


async def test_duckduckgo_failure_is_an_error_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ddgs

    class Broken:
        def text(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("no network")

    monkeypatch.setattr(ddgs, "DDGS", Broken)
    result = await run(WebSearchTool(), tmp_path, query="x")
    assert result.is_error and "DuckDuckGo" in result.content and "no network" in result.content
