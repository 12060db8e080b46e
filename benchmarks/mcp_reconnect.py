"""Reconnect time after an MCP server restarts (issue 14's target: ≤ 2 s, first call succeeds).

Cases, each `RUNS` times, with the real `MCPManager` and published/SDK servers:

- http-restart / sse-restart: `@modelcontextprotocol/server-everything` over streamable HTTP /
  SSE is killed and started again on the same port; measured from "the new process listens"
  to the first successful call (HTTP: the old Mcp-Session-Id is refused, the client
  re-initializes and resends; SSE: the broken event stream is noticed, a new one opened).
- stdio-kill-node / stdio-kill-py: server-everything / the SDK demo server (stdio) is
  killed; measured from the kill to the first successful call (the death is noticed, the
  process respawned, the session initialized).
  The call is made once the death is noticed (reported as `noticed`): a call racing the kill
  by a millisecond may have reached the server, so it is not resent (only read-only ones are).
  Also printed: when the server was connected again (respawned, initialized, tools listed).
- py-prestarted: connecting (spawn a stdio bridge, initialize, tools/list) to a Python SDK
  server that has already started and imported everything: the client's own share.
- py-bare-start / py-import-sdk: a fresh interpreter doing nothing / importing the SDK's
  `MCPServer`: the part of a Python stdio server's restart that no client can save.

Every first call after a restart must succeed; a failure is counted and printed.

    uv run python benchmarks/mcp_reconnect.py [--runs N] [--npm-dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.core.mcp import MCPManager, MCPServerConfig
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.registry import ToolRegistry

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "tests" / "integration" / "mcp" / "servers" / "demo_server.py"
EVERYTHING = "@modelcontextprotocol/server-everything@2026.8.31"
ECHO_ARG = {"mcp-server-everything": "message", "demo_server.py": "text"}


def npm_bin(folder: Path) -> Path:
    binary = folder / "node_modules" / ".bin" / "mcp-server-everything"
    if not binary.exists():
        command = ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(folder), EVERYTHING]
        subprocess.run(command, check=True, capture_output=True)
    return binary


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


class Caller:
    def __init__(self, registry: ToolRegistry) -> None:
        self.registry = registry
        ctx = ToolCallContext(session_id="bench", agent_id="main", turn=1, abort=asyncio.Event())
        self.env = ToolEnv(workspace=ROOT, call=ctx)

    async def __call__(self, name: str, **args: object) -> ToolResult:
        tool = self.registry.get(name)
        assert tool is not None, name
        return await tool.execute("bench", args, self.env)


async def start_everything(binary: Path, port: int, mode: str) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        str(binary), mode, env={**os.environ, "PORT": str(port)},
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    # "… listening on port N" (streamableHttp), "Server is running on port N" (sse)
    while b"on port" not in await process.stderr.readline():
        if process.returncode is not None:
            raise RuntimeError("server-everything did not start")
    return process


async def http_restart(binary: Path, runs: int, mode: str) -> tuple[list[float], int]:
    """server-everything over `streamableHttp` or `sse`, restarted on its port."""
    port = free_port()
    process = await start_everything(binary, port, mode)
    registry = ToolRegistry()
    manager = MCPManager(registry)
    transport, path = ("sse", "sse") if mode == "sse" else ("http", "mcp")
    url = f"http://127.0.0.1:{port}/{path}"
    await manager.start([MCPServerConfig(name="everything", transport=transport, url=url)])
    await manager.wait_ready()
    call = Caller(registry)
    times: list[float] = []
    failures = 0
    try:
        for _ in range(runs):
            assert not (await call("everything__echo", message="before")).is_error
            process.kill()
            await process.wait()
            process = await start_everything(binary, port, mode)
            started = time.perf_counter()
            result = await call("everything__echo", message="after")
            times.append(time.perf_counter() - started)
            failures += result.is_error
    finally:
        await manager.aclose()
        process.kill()
        await process.wait()
    return times, failures


def child_pid(marker: str) -> int:
    """Our child process whose command line names `marker` (the SDK spawns it)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == os.getpid() and marker.encode() in cmdline:
            return int(entry.name)
    raise LookupError(marker)


async def stdio_kill(runs: int, command: list[str], marker: str) -> tuple[list[float], int]:
    """Kill the stdio server, wait until the death is noticed, then call."""
    registry = ToolRegistry()
    manager = MCPManager(registry)
    await manager.start([MCPServerConfig(name="demo", transport="stdio", command=command)])
    await manager.wait_ready()
    call = Caller(registry)
    times: list[float] = []
    noticed: list[float] = []
    ready: list[float] = []
    failures = 0
    try:
        for _ in range(runs):
            assert not (await call("demo__echo", **{ECHO_ARG[marker]: "before"})).is_error
            pid = child_pid(marker)
            started = time.perf_counter()
            os.kill(pid, signal.SIGKILL)
            while manager.status()[0].ok:  # noqa: ASYNC110 - measuring, polling is the point
                await asyncio.sleep(0.002)
            noticed.append(time.perf_counter() - started)
            answer = asyncio.create_task(call("demo__echo", **{ECHO_ARG[marker]: "after"}))
            while not manager.status()[0].ok:  # noqa: ASYNC110 - measuring, polling is the point
                await asyncio.sleep(0.002)
            ready.append(time.perf_counter() - started)  # respawned, initialized, tools listed
            result = await answer
            times.append(time.perf_counter() - started)
            failures += result.is_error
    finally:
        await manager.aclose()
    for what, figures in (("death noticed", noticed), ("connected again", ready)):
        print(f"  {what} p50={statistics.median(figures):.3f}s max={max(figures):.3f}s")
    return times, failures


async def prestarted_connect(runs: int, folder: Path) -> list[float]:
    """Connect (initialize + tools/list) to a Python SDK server that has already started: the
    client's own share of a reconnect. The command only bridges stdio to two FIFOs."""
    times: list[float] = []
    for run in range(runs):
        pipes = folder / f"run-{run}"
        pipes.mkdir()
        to_server, from_server, ready = pipes / "in", pipes / "out", pipes / "ready"
        os.mkfifo(to_server)
        os.mkfifo(from_server)
        server = await asyncio.create_subprocess_exec(
            sys.executable, str(DEMO), "--fifos", str(to_server), str(from_server),
            "--ready", str(ready),
        )  # fmt: skip
        while not ready.exists():  # noqa: ASYNC110 - the server touches a file when ready
            await asyncio.sleep(0.01)
        bridge = ["sh", "-c", 'cat "$1" & exec cat > "$2"', "bridge", str(from_server)]
        manager = MCPManager(ToolRegistry())
        started = time.perf_counter()
        config = MCPServerConfig(name="demo", transport="stdio", command=[*bridge, str(to_server)])
        await manager.start([config])
        await manager.wait_ready()
        times.append(time.perf_counter() - started)
        assert manager.status()[0].ok, manager.status()[0].error
        await manager.aclose()
        server.kill()
        await server.wait()
    return times


def interpreter_start(runs: int, code: str) -> list[float]:
    """A fresh Python running `code`: what a Python stdio server pays before it can answer."""
    times: list[float] = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - started)
    return times


def load_average() -> str:
    with open("/proc/loadavg", encoding="ascii") as handle:
        return f"load average: {' '.join(handle.read().split()[:3])}"


def report(case: str, times: list[float], failures: int) -> None:
    ordered = sorted(times)
    p50 = statistics.median(ordered)
    worst = ordered[-1]
    print(
        f"{case:<14} runs={len(times):<3} p50={p50:.3f}s max={worst:.3f}s "
        f"first-call failures={failures}"
    )


async def main() -> None:
    # A killed server's broken stream is expected here; the SDK would print each traceback.
    logging.getLogger("mcp").addHandler(logging.NullHandler())
    logging.getLogger("mcp").propagate = False
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--npm-dir", type=Path, default=Path.home() / ".cache" / "jarvis-bench-npm")
    args = parser.parse_args()
    binary = npm_bin(args.npm_dir)
    print(load_average())
    report("http-restart", *await http_restart(binary, args.runs, "streamableHttp"))
    report("sse-restart", *await http_restart(binary, args.runs, "sse"))
    node = [str(binary), "stdio"]
    report("stdio-kill-node", *await stdio_kill(args.runs, node, "mcp-server-everything"))
    python = [sys.executable, str(DEMO), "--prefix", ""]
    report("stdio-kill-py", *await stdio_kill(args.runs, python, "demo_server.py"))
    with tempfile.TemporaryDirectory() as folder:
        report("py-prestarted", await prestarted_connect(args.runs, Path(folder)), 0)
    report("py-bare-start", interpreter_start(args.runs, "pass"), 0)
    report("py-import-sdk", interpreter_start(args.runs, "import mcp.server.mcpserver"), 0)
    print(load_average())


if __name__ == "__main__":
    asyncio.run(main())
