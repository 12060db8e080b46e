"""Reconnect time after an MCP server restarts (issue 14's target: ≤ 2 s, first call succeeds).

Cases, each `RUNS` times, with the real `MCPManager` and published/SDK servers:

- http-restart: `@modelcontextprotocol/server-everything` over streamable HTTP is killed and
  started again on the same port; measured from "the new process listens" to the first
  successful call (the old Mcp-Session-Id is refused; the client re-initializes and resends).
- stdio-kill-node / stdio-kill-py: server-everything / the SDK demo server (stdio) is
  killed; measured from the kill to the first successful call (the death is noticed, the
  process respawned, the session initialized).
  The call is made once the death is noticed (reported as `noticed`): a call racing the kill
  by a millisecond may have reached the server, so it is not resent (only read-only ones are).

Every first call after a restart must succeed; a failure is counted and printed.

    uv run python benchmarks/mcp_reconnect.py [--runs N] [--npm-dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
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


async def start_everything(binary: Path, port: int) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        str(binary), "streamableHttp", env={**os.environ, "PORT": str(port)},
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    while b"listening on port" not in await process.stderr.readline():
        if process.returncode is not None:
            raise RuntimeError("server-everything did not start")
    return process


async def http_restart(binary: Path, runs: int) -> tuple[list[float], int]:
    port = free_port()
    process = await start_everything(binary, port)
    registry = ToolRegistry()
    manager = MCPManager(registry)
    url = f"http://127.0.0.1:{port}/mcp"
    await manager.start([MCPServerConfig(name="everything", transport="http", url=url)])
    await manager.wait_ready()
    call = Caller(registry)
    times: list[float] = []
    failures = 0
    try:
        for _ in range(runs):
            assert not (await call("everything__echo", message="before")).is_error
            process.kill()
            await process.wait()
            process = await start_everything(binary, port)
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
            result = await call("demo__echo", **{ECHO_ARG[marker]: "after"})
            times.append(time.perf_counter() - started)
            failures += result.is_error
    finally:
        await manager.aclose()
    print(f"  death noticed p50={statistics.median(noticed):.3f}s max={max(noticed):.3f}s")
    return times, failures


def report(case: str, times: list[float], failures: int) -> None:
    ordered = sorted(times)
    p50 = statistics.median(ordered)
    worst = ordered[-1]
    print(
        f"{case:<14} runs={len(times):<3} p50={p50:.3f}s max={worst:.3f}s "
        f"first-call failures={failures}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--npm-dir", type=Path, default=Path.home() / ".cache" / "jarvis-bench-npm")
    args = parser.parse_args()
    binary = npm_bin(args.npm_dir)
    report("http-restart", *await http_restart(binary, args.runs))
    node = [str(binary), "stdio"]
    report("stdio-kill-node", *await stdio_kill(args.runs, node, "mcp-server-everything"))
    python = [sys.executable, str(DEMO), "--prefix", ""]
    report("stdio-kill-py", *await stdio_kill(args.runs, python, "demo_server.py"))


if __name__ == "__main__":
    asyncio.run(main())
