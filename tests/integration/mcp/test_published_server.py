"""A published MCP server package (`mcp-server-time`, built on the same SDK) over stdio."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Awaitable, Callable

import pytest

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.mcp import MCPManager, MCPServerConfig
from jarvis.core.tools.registry import ToolRegistry

Call = Callable[..., Awaitable[ToolResult]]


@pytest.fixture
def time_server() -> MCPServerConfig:
    if importlib.util.find_spec("mcp_server_time") is None:
        reason = "mcp-server-time is not installed (it belongs in the dev dependencies)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    command = [sys.executable, "-m", "mcp_server_time", "--local-timezone", "UTC"]
    return MCPServerConfig(name="time", transport="stdio", command=command)


async def test_the_time_server_is_discovered_and_called(
    time_server: MCPServerConfig, manager: MCPManager, registry: ToolRegistry, call: Call
) -> None:
    await manager.start([time_server])
    await manager.wait_ready()

    assert manager.status()[0].ok, manager.status()[0].error
    assert {"time__get_current_time", "time__convert_time"} <= set(registry.names())
    now = await call("time__get_current_time", timezone="Europe/Paris")
    converted = await call(
        "time__convert_time", source_timezone="UTC", time="12:00", target_timezone="Asia/Seoul"
    )
    unknown = await call("time__get_current_time", timezone="Mars/Olympus_Mons")

    assert not now.is_error
    assert now.details["structured_content"]["timezone"] == "Europe/Paris"
    assert converted.details["structured_content"]["target"]["datetime"].endswith("21:00:00+09:00")
    assert unknown.is_error
    assert "Mars/Olympus_Mons" in unknown.content
