"""The manager: concurrent start, failing and hanging servers, apply, list changes, dead servers."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.mcp import MCPConfigError, MCPManager, MCPServerConfig
from jarvis.core.tools.registry import ToolRegistry
from tests.integration.mcp.conftest import free_port, stdio_config, wait_for

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

    status = {s.name: s for s in manager.status()}
    assert [s.name for s in manager.status()] == ["missing", "refused", "refused-sse", "good"]
    assert (status["good"].ok, status["good"].tool_count, status["good"].error) == (True, 9, None)
    for name in ("missing", "refused", "refused-sse"):
        assert not status[name].ok and status[name].tool_count == 0
    assert "FileNotFoundError" in (status["missing"].error or "")
    assert "ConnectError" in (status["refused"].error or "")
    assert "ConnectError" in (status["refused-sse"].error or "")
    assert {tool.source.name for tool in registry.tools()} == {"good"}


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
    start = asyncio.create_task(manager.start(configs))

    # The good server's tools register while the others are still being waited for.
    await wait_for(lambda: registry.get("echo") is not None or start.done())
    still_starting = not start.done()
    await start

    assert still_starting
    status = {s.name: s for s in manager.status()}
    assert status["hangs"].error == status["hangs-http"].error == "no answer within 5 s"
    assert status["good"].ok


async def test_apply_reconnects_only_what_changed(
    manager: MCPManager, registry: ToolRegistry
) -> None:
    await manager.start([stdio_config("a", "a_"), stdio_config("b", "b_")])
    a_echo, b_echo = registry.get("a_echo"), registry.get("b_echo")

    await manager.apply([stdio_config("a", "a_"), stdio_config("b", "b_", timeout=20)])

    assert registry.get("a_echo") is a_echo
    assert registry.get("b_echo") is not b_echo
    assert [s.name for s in manager.status()] == ["a", "b"]

    await manager.apply([stdio_config("b", "b_", timeout=20), stdio_config("c", "c_")])

    assert registry.get("a_echo") is None
    assert registry.get("c_echo") is not None
    assert {tool.source.name for tool in registry.tools()} == {"b", "c"}
    assert [s.name for s in manager.status()] == ["b", "c"]


async def test_apply_retries_a_server_that_failed(
    manager: MCPManager, registry: ToolRegistry
) -> None:
    await manager.start([MCPServerConfig(name="x", transport="stdio", command=["/nonexistent"])])
    assert not manager.status()[0].ok

    await manager.apply([stdio_config("x")])

    assert manager.status()[0].ok
    assert registry.get("echo") is not None


async def test_the_server_later_in_the_config_wins_a_shared_name(
    manager: MCPManager, registry: ToolRegistry
) -> None:
    await manager.start([stdio_config("first"), stdio_config("second")])

    def owner() -> str | None:
        tool = registry.get("echo")
        return tool.source.name if tool else None

    assert owner() == "second"

    await manager.apply([stdio_config("first")])

    assert owner() == "first"


async def test_duplicate_server_names_are_refused(manager: MCPManager) -> None:
    with pytest.raises(MCPConfigError, match="'twice' is used twice"):
        await manager.start([stdio_config("twice"), stdio_config("twice")])


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

    assert (await call("grow", name="sprouted")).content == "grown"

    await wait_for(lambda: registry.get("sprouted") is not None)
    assert (await call("sprouted")).content == "sprouted"
    assert manager.status()[0].tool_count == 10


async def test_a_dead_stdio_server_is_restarted_on_the_next_call(
    manager: MCPManager, call: Call
) -> None:
    await manager.start([stdio_config("demo")])
    first_pid = int((await call("pid")).content)

    os.kill(first_pid, signal.SIGKILL)
    result = await call("echo", text="again")
    if result.is_error:  # the call raced the end of the stream
        assert result.content.startswith("MCP server 'demo': echo: connection lost")
        result = await call("echo", text="again")

    assert (result.content, result.is_error) == ("again", False)
    assert int((await call("pid")).content) != first_pid


async def test_a_frozen_server_does_not_hang_a_call_beyond_its_timeout(
    manager: MCPManager, call: Call, prelaunched: MakeConfig
) -> None:
    await manager.start([await prelaunched("demo", timeout=2)])
    pid = int((await call("pid")).content)

    os.kill(pid, signal.SIGSTOP)
    try:
        result = await call("echo", text="anyone?")
    finally:
        os.kill(pid, signal.SIGCONT)

    # The call's own timeout ended it (a hang would never return; pytest's timeout fails it).
    assert result.is_error
    assert result.content == "MCP server 'demo': echo: no answer within 2 s"
