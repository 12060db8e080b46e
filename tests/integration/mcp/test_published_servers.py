"""Published servers nobody here wrote: server-filesystem, server-memory (npm), mcp-server-git
and mcp-server-fetch (PyPI)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, PlainTextResponse
from starlette.routing import Route

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.mcp import MCPManager, MCPServerConfig
from jarvis.core.tools.base import Tool
from jarvis.core.tools.registry import ToolRegistry
from tests.integration.mcp.conftest import ServeApp, python_server

Call = Callable[..., Awaitable[ToolResult]]


class _BuiltinReadFile(Tool):
    name = "read_file"
    description = "the built-in"


def filesystem(npm_bin: Path, root: Path, **extra: object) -> MCPServerConfig:
    command = [str(npm_bin / "mcp-server-filesystem"), str(root)]
    return MCPServerConfig(name="fs", transport="stdio", command=command, **extra)  # type: ignore[arg-type]


async def test_filesystem_never_replaces_the_builtins_and_writes_in_order(
    npm_bin: Path, manager: MCPManager, registry: ToolRegistry, call: Call, tmp_path: Path
) -> None:
    builtin = _BuiltinReadFile()
    registry.register(builtin)
    root = (tmp_path / "data").resolve()
    root.mkdir()
    await manager.start([filesystem(npm_bin, root)])
    await manager.wait_ready()

    assert registry.get("read_file") is builtin
    assert {"fs__read_text_file", "fs__write_file", "fs__create_directory"} <= set(registry.names())
    assert registry.get("fs__write_file").requires_approval  # type: ignore[union-attr]
    # Sent together, as a model's parallel tool calls are: they must not race on the server.
    made, written, read = await asyncio.gather(
        call("fs__create_directory", path=str(root / "notes")),
        call("fs__write_file", path=str(root / "notes" / "a.txt"), content="hello"),
        call("fs__read_text_file", path=str(root / "notes" / "a.txt")),
    )
    assert not made.is_error and not written.is_error, (made.content, written.content)
    assert (read.content, read.is_error) == ("hello", False)


async def test_a_huge_file_read_is_capped_and_not_doubled(
    npm_bin: Path, manager: MCPManager, call: Call, tmp_path: Path
) -> None:
    root = tmp_path.resolve()
    (root / "big.txt").write_text("x" * 2_000_000, encoding="utf-8")
    await manager.start([filesystem(npm_bin, root, max_result_chars=10_000)])
    await manager.wait_ready()

    result = await call("fs__read_text_file", path=str(root / "big.txt"))

    assert len(result.content) < 10_100
    assert result.content.endswith("[truncated: showing 10,000 of 2,000,000 characters]")


async def test_replace_builtins_hides_the_builtin_and_says_so(
    npm_bin: Path, manager: MCPManager, registry: ToolRegistry, tmp_path: Path
) -> None:
    registry.register(_BuiltinReadFile())
    await manager.start([filesystem(npm_bin, tmp_path, replace_builtins=["read_file"])])
    await manager.wait_ready()

    assert registry.get("read_file") is None
    assert "read_file" not in registry.names()
    assert manager.status()[0].shadows == ("read_file",)

    await manager.apply([])

    assert registry.get("read_file") is not None


async def test_memory_server_keeps_a_graph(
    npm_bin: Path, manager: MCPManager, call: Call, tmp_path: Path
) -> None:
    command = [str(npm_bin / "mcp-server-memory")]
    env = {"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")}
    await manager.start([MCPServerConfig(name="mem", transport="stdio", command=command, env=env)])
    await manager.wait_ready()

    entity = {"name": "Ada", "entityType": "person", "observations": ["writes programs"]}
    created = await call("mem__create_entities", entities=[entity])
    graph = await call("mem__read_graph")

    assert not created.is_error, created.content
    assert "writes programs" in graph.content
    # The answer comes as text and as the same structured graph: the model sees it once.
    assert graph.content.count("writes programs") == 1


async def test_git_server_reads_a_repository(
    manager: MCPManager, call: Call, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = await asyncio.create_subprocess_exec("git", "init", "-q", str(repo))
    assert await git.wait() == 0
    (repo / "new.txt").write_text("x", encoding="utf-8")
    command = [*python_server("mcp_server_git"), "--repository", str(repo)]
    await manager.start([MCPServerConfig(name="git", transport="stdio", command=command)])
    await manager.wait_ready()

    status = await call("git__git_status", repo_path=str(repo))

    assert not status.is_error, status.content
    assert "new.txt" in status.content


async def test_fetch_server_fetches_a_page(
    manager: MCPManager, call: Call, serve_app: ServeApp
) -> None:
    async def page(_request: object) -> HTMLResponse:
        return HTMLResponse("<html><body><h1>Jarvis test page</h1><p>hello fetch</p></body></html>")

    async def robots(_request: object) -> PlainTextResponse:
        return PlainTextResponse("User-agent: *\nAllow: /\n")

    app = Starlette(routes=[Route("/page", page), Route("/robots.txt", robots)])
    port = await serve_app(app)
    command = [*python_server("mcp_server_fetch"), "--allow-private-ips"]
    await manager.start([MCPServerConfig(name="fetch", transport="stdio", command=command)])
    await manager.wait_ready()

    fetched = await call("fetch__fetch", url=f"http://127.0.0.1:{port}/page")

    assert not fetched.is_error, fetched.content
    assert "hello fetch" in fetched.content
