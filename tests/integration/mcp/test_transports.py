"""Discovery and call results over every transport, against the real demo server."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.mcp import MCPManager, MCPServerConfig, MCPTool
from jarvis.core.tools.registry import ToolRegistry
from tests.integration.mcp.conftest import Transport

DEMO_TOOLS = {
    f"demo__{name}"
    for name in ("echo", "add", "stats", "fail", "slow", "media", "whoami", "pid", "grow")
}

MakeConfig = Callable[..., Awaitable[MCPServerConfig]]
Call = Callable[..., Awaitable[ToolResult]]


@pytest.mark.parametrize("transport", ["stdio", "sse", "http"])
async def test_discovers_and_calls_over_each_transport(
    transport: Transport,
    demo_config: MakeConfig,
    manager: MCPManager,
    registry: ToolRegistry,
    call: Call,
) -> None:
    await manager.start([await demo_config(transport)])
    await manager.wait_ready()

    assert [(s.name, s.ok, s.tool_count) for s in manager.status()] == [("demo", True, 9)]
    assert set(registry.names()) >= DEMO_TOOLS
    echo = registry.get("demo__echo")
    assert isinstance(echo, MCPTool)
    assert echo.source.label() == "mcp:demo"
    assert echo.description == "[MCP server 'demo', tool 'echo']\nEcho the text back."
    assert echo.parameters["properties"]["text"]["type"] == "string"
    result = await call("demo__echo", text="hello")
    assert (result.content, result.is_error) == ("hello", False)


@pytest.mark.parametrize("transport", ["sse", "http"])
async def test_auth_token_and_headers_reach_the_server(
    transport: Transport, demo_config: MakeConfig, manager: MCPManager, call: Call
) -> None:
    config = await demo_config(transport, auth_token="sk-test", headers={"X-Org": "acme"})
    await manager.start([config])
    await manager.wait_ready()

    seen = (await call("demo__whoami")).details["structured_content"]

    assert seen == {"authorization": "Bearer sk-test", "x-org": "acme"}


async def test_call_results_are_mapped_faithfully(
    demo_config: MakeConfig, manager: MCPManager, call: Call
) -> None:
    await manager.start([await demo_config("http")])
    await manager.wait_ready()

    added = await call("demo__add", a=2, b=3)
    stats = await call("demo__stats", numbers=[1, 2, 3])
    echoed = await call("demo__echo", text="hi")
    failed = await call("demo__fail", message="disk on fire")
    media = await call("demo__media")

    # Structured content is appended when it says more than the text ...
    assert added.content == '2 + 3 = 5\n{"sum": 5}'
    assert added.details["structured_content"] == {"sum": 5}
    # ... and not when the text already is that JSON, or MCPServer's {"result": …} wrapper.
    assert stats.content == '{\n  "count": 3,\n  "mean": 2.0\n}'
    assert echoed.content == "hi"
    assert (failed.is_error, failed.content) == (True, "Error executing tool fail: disk on fire")
    assert media.content.splitlines() == [
        "here you go",
        "[image 1: image/png, 32 bytes, attached]",
        "[resource link: file:///tmp/report.txt (report); read it with read_resource]",
        "[resource: memo://today]",
        "buy milk",
    ]


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_slow_call_times_out_with_an_error_naming_the_server(
    transport: Transport,
    demo_config: MakeConfig,
    prelaunched: MakeConfig,
    manager: MCPManager,
    call: Call,
) -> None:
    # The timeout also bounds connecting: over stdio the server is started ahead (its Python
    # import is not part of the budget), over HTTP it is already serving in this process.
    config = await (prelaunched("demo") if transport == "stdio" else demo_config(transport))
    await manager.start([config.model_copy(update={"call_timeout": 2, "connect_timeout": 30})])
    await manager.wait_ready()

    result = await call("demo__slow", seconds=30)

    assert result.is_error
    assert result.content == "MCP server 'demo': slow: no answer within 2 s"
    assert result.details["mcp_code"] == -32001
    # The session survives a timed-out call.
    assert (await call("demo__echo", text="still here")).content == "still here"


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ([], {"demo__echo": True, "demo__add": True}),
        (["*"], {"demo__echo": False, "demo__add": False}),
        (["add"], {"demo__echo": True, "demo__add": False}),
    ],
)
async def test_only_auto_approved_tools_skip_asking(
    rule: Any,
    expected: dict[str, bool],
    demo_config: MakeConfig,
    manager: MCPManager,
    registry: ToolRegistry,
) -> None:
    await manager.start([await demo_config("http", auto_approve=rule)])
    await manager.wait_ready()

    declared = {name: getattr(registry.get(name), "requires_approval", None) for name in expected}

    assert declared == expected
