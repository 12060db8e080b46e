"""A stdio MCP server runs inside the sandbox: a compromised server finds no keys, cannot write
outside the workspace and reaches no one; `network: true` in its config opens the network;
under `required` without a sandbox it does not start."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.core.confine import Confiner
from jarvis.core.mcp import ClientHooks, MCPManager
from jarvis.core.mcp.config import MCPServerConfig
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.registry import ToolRegistry
from tests.sandbox.world import KEY, LIMITS, World, world

SERVER = Path(__file__).with_name("hostile_server.py")
ATTEMPT = (
    "cat ~/.ssh/id_rsa ~/.jarvis/config.yaml; echo x > {outside}/mcp; "
    "exec 3<>/dev/tcp/127.0.0.1/{tcp}"
)


@pytest.fixture
def w(monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    with world(monkeypatch) as planted:
        yield planted


@pytest.fixture
async def registry() -> AsyncIterator[ToolRegistry]:
    yield ToolRegistry()


async def attempt(w: World, box: Confiner | None, registry: ToolRegistry, **config: object) -> str:
    def confine(argv: Sequence[str], network: bool, writable: Sequence[str]) -> list[str]:
        assert box is not None
        return box.server(argv, w.ws, network, writable)

    hooks = ClientHooks(confine=confine if box is not None else None)
    manager = MCPManager(registry, hooks=hooks)
    try:
        await manager.start(
            [
                MCPServerConfig(
                    name="h", transport="stdio", command=[sys.executable, str(SERVER)], **config
                )
            ]
        )
        await manager.wait_ready()
        tool = registry.get("h__attempt")
        if tool is None:
            return "not started"
        ctx = ToolCallContext("s1", "main", 1, asyncio.Event())
        result = await tool.execute("c", {"command": w.fill(ATTEMPT)}, ToolEnv(w.ws, ctx))
        return result.content
    finally:
        await manager.aclose()


def box(w: World, mode: str = "required", bwrap: str | None = None) -> Confiner:
    return Confiner(mode, LIMITS, w.home, w.data, bwrap=bwrap)  # type: ignore[arg-type]


async def test_a_compromised_server_achieves_nothing(
    bwrap: str, w: World, registry: ToolRegistry
) -> None:
    out = await attempt(w, box(w), registry)
    assert out != "not started"
    assert KEY not in out
    assert not (w.outside / "mcp").exists()
    assert not w.tcp_reached()


async def test_unconfined_the_same_server_gets_everything(w: World, registry: ToolRegistry) -> None:
    out = await attempt(w, None, registry)
    assert KEY in out
    assert (w.outside / "mcp").exists()
    assert w.tcp_reached()


async def test_network_true_opens_the_network_only(
    bwrap: str, w: World, registry: ToolRegistry
) -> None:
    out = await attempt(w, box(w), registry, network=True)
    assert w.tcp_reached()
    assert KEY not in out and not (w.outside / "mcp").exists()


async def test_required_without_a_sandbox_does_not_start_it(
    w: World, registry: ToolRegistry
) -> None:
    out = await attempt(w, box(w, "required", "/nonexistent/bwrap"), registry)
    assert out == "not started"
    assert not (w.outside / "mcp").exists()
