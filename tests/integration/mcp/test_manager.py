"""The manager: concurrent start, failing and hanging servers, apply, list changes, dead servers."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.mcp import MCPConfigError, MCPManager, MCPServerConfig
from jarvis.core.tools.registry import ToolRegistry
from tests.integration.mcp.conftest import stdio_config, wait_for
from tests.support.ports import free_port

MakeConfig = Callable[..., Awaitable[MCPServerConfig]]
Call = Callable[..., Awaitable[ToolResult]]

# Reads stdin until it closes and never answers: a server that hangs on initialize.
HANGING_COMMAND = [sys.executable, "-c", "import sys; sys.stdin.read()"]


@pytest.fixture
async def silent_port() -> AsyncIterator[int]:
    """An HTTP port that accepts connections and never answers."""

    async def swallow(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()
        writer.close()

    server = await asyncio.start_server(swallow, "127.0.0.1", 0)
    yield server.sockets[0].getsockname()[1]
    server.close()


async def test_failing_servers_are_skipped_and_reported(
    manager: MCPManager, registry: ToolRegistry
) -> None:
    configs = [
        MCPServerConfig(name="missing", transport="stdio", command=["/nonexistent/mcp-server"]),
        MCPServerConfig(
            name="refused", transport="http", url=f"http://127.0.0.1:{free_port()}/mcp"
        ),
        MCPServerConfig(
            name="refused-sse", transport="sse", url=f"http://127.0.0.1:{free_port()}/sse"
        ),
        stdio_config("good"),
    ]

    await manager.start(configs)
    await manager.wait_ready()

    status = {s.name: s for s in manager.status()}
    assert [s.name for s in manager.status()] == ["missing", "refused", "refused-sse", "good"]
    assert (status["good"].ok, status["good"].tool_count, status["good"].error) == (True, 9, None)
    for name in ("missing", "refused", "refused-sse"):
        assert (status[name].state, status[name].tool_count) == ("failed", 0)
    assert "FileNotFoundError" in (status["missing"].error or "")
    assert "ConnectError" in (status["refused"].error or "")
    assert "ConnectError" in (status["refused-sse"].error or "")
    assert {tool.source.name for tool in registry.tools() if tool.name != "read_resource"} == {
        "good"
    }


async def test_hanging_servers_are_skipped_after_their_timeout_without_blocking_others(
    manager: MCPManager,
    registry: ToolRegistry,
    silent_port: int,
    prelaunched: MakeConfig,
) -> None:
    hang = 5  # a budget for answers only: the good server's Python is already running
    configs = [
        MCPServerConfig(name="hangs", transport="stdio", command=HANGING_COMMAND, timeout=hang),
        MCPServerConfig(
            name="hangs-http",
            transport="http",
            url=f"http://127.0.0.1:{silent_port}/mcp",
            timeout=hang,
        ),
        await prelaunched("good"),
    ]
    await manager.start(configs)
    # Start-up never waits: every server is still connecting when `start` returns.
    assert {s.state for s in manager.status()} == {"connecting"}

    # The good server's tools register while the others are still being waited for.
    await wait_for(lambda: registry.get("good__echo") is not None)
    assert manager.status()[0].state == "connecting"
    await manager.wait_ready()

    status = {s.name: s for s in manager.status()}
    assert status["hangs"].error == status["hangs-http"].error == "no answer within 5 s"
    assert status["good"].ok


# Never answers; once its stdin closes it writes its pid and lives on until it is signalled.
OUTLIVES_STDIN = (
    "import os, sys, time; sys.stdin.read(); "
    "open(sys.argv[1] + '.tmp', 'w').write(str(os.getpid())); "
    "os.rename(sys.argv[1] + '.tmp', sys.argv[1]); time.sleep(3600)"
)


async def test_closing_during_a_hung_servers_grace_period_still_stops_it(
    manager: MCPManager, tmp_path: Path
) -> None:
    """The SDK closes a timed-out server's stdin, waits a grace period, then kills it. Closing
    the manager in that wait once aborted it: the server lived on and the event loop's teardown
    waited for it until the test timed out."""
    pid_file = tmp_path / "pid"
    command = [sys.executable, "-c", OUTLIVES_STDIN, str(pid_file)]
    config = MCPServerConfig(name="stays", transport="stdio", command=command, timeout=1)
    await manager.start([config])
    await wait_for(pid_file.exists)  # its connect timed out; the SDK is in the grace period

    await manager.aclose()

    await wait_for(lambda: not Path(f"/proc/{pid_file.read_text()}").exists())


async def test_apply_reconnects_only_what_changed(
    manager: MCPManager, registry: ToolRegistry
) -> None:
    await manager.start([stdio_config("a", "a_"), stdio_config("b", "b_")])
    await manager.wait_ready()
    a_echo, b_echo = registry.get("a__a_echo"), registry.get("b__b_echo")

    await manager.apply([stdio_config("a", "a_"), stdio_config("b", "b_", timeout=20)])
    await manager.wait_ready()

    assert registry.get("a__a_echo") is a_echo
    assert registry.get("b__b_echo") is not b_echo
    assert [s.name for s in manager.status()] == ["a", "b"]

    await manager.apply([stdio_config("b", "b_", timeout=20), stdio_config("c", "c_")])
    await manager.wait_ready()

    assert registry.get("a__a_echo") is None
    assert registry.get("c__c_echo") is not None
    assert {tool.source.name for tool in registry.tools() if tool.name != "read_resource"} == {
        "b",
        "c",
    }
    assert [s.name for s in manager.status()] == ["b", "c"]


async def test_apply_retries_a_server_that_failed(
    manager: MCPManager, registry: ToolRegistry
) -> None:
    await manager.start([MCPServerConfig(name="x", transport="stdio", command=["/nonexistent"])])
    await manager.wait_ready()
    assert not manager.status()[0].ok

    await manager.apply([stdio_config("x")])
    await manager.wait_ready()

    assert manager.status()[0].ok
    assert registry.get("x__echo") is not None


async def test_two_instances_of_one_server_both_keep_their_tools(
    manager: MCPManager, registry: ToolRegistry, call: Call
) -> None:
    await manager.start([stdio_config("first"), stdio_config("second")])
    await manager.wait_ready()

    assert {"first__echo", "second__echo"} <= set(registry.names())
    assert registry.get("echo") is None
    assert [s.tool_count for s in manager.status()] == [9, 9]
    pids = {(await call(f"{name}__pid")).content for name in ("first", "second")}
    assert len(pids) == 2


async def test_duplicate_server_names_are_refused(manager: MCPManager) -> None:
    with pytest.raises(MCPConfigError, match="'twice' is used twice"):
        await manager.start([stdio_config("twice"), stdio_config("twice")])
        await manager.wait_ready()


@pytest.mark.parametrize(
    ("transport", "legacy"),
    [("stdio", False), ("sse", False), ("http", False), ("http", True)],
    ids=["stdio-listen", "sse-listen", "http-listen", "http-2025-notification"],
)
async def test_tool_list_changes_refresh_the_registry(
    transport: str,
    legacy: bool,
    demo_config: MakeConfig,
    manager: MCPManager,
    registry: ToolRegistry,
    call: Call,
) -> None:
    await manager.start([await demo_config(transport, legacy=legacy)])
    await manager.wait_ready()

    assert (await call("demo__grow", name="sprouted")).content == "grown"

    await wait_for(lambda: registry.get("demo__sprouted") is not None)
    assert (await call("demo__sprouted")).content == "sprouted"
    assert manager.status()[0].tool_count == 10


async def test_a_dead_stdio_server_is_noticed_and_restarted_before_the_next_call(
    manager: MCPManager, call: Call
) -> None:
    states: list[str] = []
    manager.watch(lambda status: states.append(status.state))
    await manager.start([stdio_config("demo")])
    await manager.wait_ready()
    first_pid = int((await call("demo__pid")).content)

    os.kill(first_pid, signal.SIGKILL)
    # Noticed without any call, and reconnected in the background.
    await wait_for(lambda: "reconnecting" in states and manager.status()[0].ok)
    result = await call("demo__echo", text="again")

    assert (result.content, result.is_error) == ("again", False)
    assert int((await call("demo__pid")).content) != first_pid


async def test_a_frozen_server_does_not_hang_a_call_beyond_its_timeout(
    manager: MCPManager, call: Call, prelaunched: MakeConfig
) -> None:
    await manager.start([await prelaunched("demo", call_timeout=2)])
    await manager.wait_ready()
    pid = int((await call("demo__pid")).content)

    os.kill(pid, signal.SIGSTOP)
    try:
        result = await call("demo__echo", text="anyone?")
    finally:
        os.kill(pid, signal.SIGCONT)

    # The call's own timeout ended it (a hang would never return; pytest's timeout fails it).
    assert result.is_error
    assert result.content == "MCP server 'demo': echo: no answer within 2 s"


async def test_a_server_down_at_start_is_retried_in_the_background(
    manager: MCPManager, serve_app: Callable[..., Awaitable[int]], registry: ToolRegistry
) -> None:
    from tests.integration.mcp.servers.demo_server import build_server

    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    await manager.start([MCPServerConfig(name="late", transport="http", url=url)])
    await manager.wait_ready()
    assert manager.status()[0].state == "failed"

    await serve_app(build_server().streamable_http_app(), port=port)

    await wait_for(lambda: registry.get("late__echo") is not None)
    assert manager.status()[0].ok


async def test_a_401_says_to_log_in(
    manager: MCPManager, serve_app: Callable[..., Awaitable[int]]
) -> None:
    from starlette.types import Receive, Scope, Send

    from tests.integration.mcp.servers.demo_server import build_server

    inner = build_server().streamable_http_app()
    asked: list[str] = []

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            asked.append(scope["path"])
            await send({"type": "http.response.start", "status": 401, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        await inner(scope, receive, send)

    port = await serve_app(guarded)
    url = f"http://127.0.0.1:{port}/mcp"
    await manager.start([MCPServerConfig(name="secure", transport="http", url=url)])
    await manager.wait_ready()

    status = manager.status()[0]
    assert status.state == "needs_login"
    assert status.error == "the server asks for sign-in (401); run `jarvis mcp login secure`"
    tries = len(asked)
    # It waits for a login (or a reconnect request), which tries again.
    manager.reconnect("secure")
    await wait_for(lambda: len(asked) > tries)
    assert manager.status()[0].state == "needs_login"
