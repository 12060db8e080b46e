"""Real MCP servers for the tests: the demo server over stdio, SSE and streamable HTTP."""

from __future__ import annotations

import asyncio
import fcntl
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

import pytest
import uvicorn
from starlette.types import ASGIApp

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.core.mcp import MCPManager, MCPServerConfig
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.registry import ToolRegistry
from tests.integration.mcp.servers.demo_server import build_server

DEMO_SCRIPT = Path(__file__).parent / "servers" / "demo_server.py"

ServeApp = Callable[..., Awaitable[int]]
Transport = Literal["stdio", "sse", "http"]


def stdio_config(name: str, prefix: str = "", **extra: Any) -> MCPServerConfig:
    command = [sys.executable, str(DEMO_SCRIPT), "--prefix", prefix]
    return MCPServerConfig(name=name, transport="stdio", command=command, **extra)


async def wait_for(check: Callable[[], bool]) -> None:
    """Poll until `check()` holds, with no wall-clock budget: a busy machine only makes it
    slower; pytest's timeout catches a condition that never comes."""
    # Polling: neither the registry nor uvicorn has an event to wait on.
    while not check():
        await asyncio.sleep(0.02)


@pytest.fixture
async def prelaunched(tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[MCPServerConfig]]]:
    """A stdio demo server whose Python process has started and imported everything before
    the client connects; the config's command only bridges stdio to it through two FIFOs. A
    short `timeout` then measures the server's answers, not the machine's start-up speed."""
    processes: list[asyncio.subprocess.Process] = []

    async def make(name: str, **extra: Any) -> MCPServerConfig:
        folder = tmp_path / f"fifo-{name}"
        folder.mkdir()
        to_server, from_server, ready = folder / "in", folder / "out", folder / "ready"
        os.mkfifo(to_server)
        os.mkfifo(from_server)
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(DEMO_SCRIPT), "--fifos", str(to_server), str(from_server),
            "--ready", str(ready),
        )  # fmt: skip
        processes.append(process)
        await wait_for(lambda: ready.exists() or process.returncode is not None)
        assert process.returncode is None, "the pre-launched demo server died"
        bridge = ["sh", "-c", 'cat "$1" & exec cat > "$2"', "bridge", str(from_server)]
        return MCPServerConfig(
            name=name, transport="stdio", command=[*bridge, str(to_server)], **extra
        )

    yield make
    for process in processes:
        if process.returncode is None:
            process.kill()
        await process.wait()


@pytest.fixture
def registry() -> ToolRegistry:
    return ToolRegistry()


@pytest.fixture
async def manager(registry: ToolRegistry) -> AsyncIterator[MCPManager]:
    manager = MCPManager(registry)
    yield manager
    await manager.aclose()


@pytest.fixture
def env(tmp_path: Path) -> ToolEnv:
    call = ToolCallContext(session_id="s1", agent_id="main", turn=1, abort=asyncio.Event())
    return ToolEnv(workspace=tmp_path, call=call)


@pytest.fixture
def call(registry: ToolRegistry, env: ToolEnv) -> Callable[..., Awaitable[ToolResult]]:
    """Run a registered tool by name, as the executor would."""

    async def run(name: str, /, **args: Any) -> ToolResult:
        tool = registry.get(name)
        assert tool is not None, f"{name} is not registered; have {registry.names()}"
        return await tool.execute("call-1", args, env)

    return run


@pytest.fixture
async def serve_app() -> AsyncIterator[ServeApp]:
    """Serve ASGI apps under uvicorn on 127.0.0.1; returns each one's port once it accepts."""
    servers: list[tuple[uvicorn.Server, asyncio.Task[None]]] = []

    async def serve(app: ASGIApp, port: int = 0) -> int:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
        server = uvicorn.Server(config)
        servers.append((server, asyncio.create_task(server.serve(sockets=[sock]))))
        await wait_for(lambda: server.started)
        port: int = sock.getsockname()[1]
        return port

    yield serve
    for server, _task in servers:
        server.should_exit = True
    await asyncio.gather(*(task for _server, task in servers))


@pytest.fixture
def demo_config(serve_app: ServeApp) -> Callable[..., Awaitable[MCPServerConfig]]:
    """The demo server on one transport, as a config named `demo`."""

    async def make(transport: Transport, *, legacy: bool = False, **extra: Any) -> MCPServerConfig:
        if transport == "stdio":
            return stdio_config("demo", **extra)
        server = build_server(legacy=legacy)
        if transport == "sse":
            port = await serve_app(server.sse_app())
            url = f"http://127.0.0.1:{port}/sse"
        else:
            port = await serve_app(server.streamable_http_app())
            url = f"http://127.0.0.1:{port}/mcp"
        return MCPServerConfig(name="demo", transport=transport, url=url, **extra)

    return make


# Published npm servers the client is tested against, pinned; installed once into a cache dir.
NPM_SERVERS = (
    "@modelcontextprotocol/server-everything@2026.8.31",
    "@modelcontextprotocol/server-filesystem@2026.8.31",
    "@modelcontextprotocol/server-memory@2026.8.31",
)


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def npm_bin() -> Path:
    """`node_modules/.bin` holding the published servers (npm install on the first run only)."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        _unavailable("node/npm are not installed (the published MCP servers need them)")
    default = Path.home() / ".cache" / "jarvis-tests" / "mcp-npm"
    root = Path(os.environ.get("JARVIS_TEST_NPM_DIR", default))
    marker = root / "installed.txt"
    wanted = "\n".join(NPM_SERVERS)
    root.mkdir(parents=True, exist_ok=True)
    # Test processes run side by side (pytest-xdist): one installs, the others wait for it.
    with (root / ".install-lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not marker.is_file() or marker.read_text(encoding="utf-8") != wanted:
            npm = ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(root)]
            done = subprocess.run([*npm, *NPM_SERVERS], capture_output=True, text=True, check=False)
            if done.returncode != 0:
                _unavailable(f"npm install failed: {done.stderr.strip()[-500:]}")
            marker.write_text(wanted, encoding="utf-8")
    return root / "node_modules" / ".bin"


def python_server(module: str) -> list[str]:
    """A published PyPI server (dev dependency group) run with this interpreter."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        _unavailable(f"{module} is not installed (it belongs in the dev dependencies)")
    return [sys.executable, "-m", module]
