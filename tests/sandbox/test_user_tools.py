"""A user tool's subprocesses started through `env.confine(argv)` run in the sandbox: with
the network only when a person approved the call."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.core.confine import Confiner
from jarvis.core.extensions.user_tools import UserToolLoader
from jarvis.core.tools.base import Tool, ToolEnv
from tests.sandbox.world import KEY, LIMITS, World, world

TOOL = """
import subprocess

TOOL_NAME = "attempt"
TOOL_DESCRIPTION = "Run a shell line."
TOOL_PARAMETERS = {"type": "object", "properties": {"command": {"type": "string"}}}


def execute(call_id, args, env):
    argv = ["/bin/bash", "-c", args["command"]]
    if env.confine is not None:
        argv = env.confine(argv)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    return done.stdout + done.stderr
"""
ATTEMPT = "cat ~/.ssh/id_rsa; echo x > {outside}/tool; exec 3<>/dev/tcp/127.0.0.1/{tcp}"


@pytest.fixture
def w(monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    with world(monkeypatch) as planted:
        yield planted


def load(w: World, mode: str) -> Tool:
    folder = w.root / "tools"
    folder.mkdir(exist_ok=True)
    (folder / "attempt.py").write_text(TOOL)
    box = Confiner(mode, LIMITS, w.home, w.data)  # type: ignore[arg-type]
    (tool,) = UserToolLoader(folder, box).load().tools
    return tool


async def call(w: World, tool: Tool, decision: dict[str, str]) -> str:
    ctx = ToolCallContext("s1", "main", 1, asyncio.Event())
    env = ToolEnv(w.ws, ctx, decision=decision)
    result = await tool.execute("c", {"command": w.fill(ATTEMPT)}, env)
    return result.content


async def test_a_user_tools_process_is_confined(bwrap: str, w: World) -> None:
    rule = {"outcome": "allow", "reason": "rule:a", "rule": "a: allow attempt *"}
    out = await call(w, load(w, "required"), rule)
    assert KEY not in out and not (w.outside / "tool").exists() and not w.tcp_reached()


async def test_a_person_approving_the_call_grants_its_network(bwrap: str, w: World) -> None:
    out = await call(w, load(w, "required"), {"outcome": "allow", "reason": "user_once"})
    assert w.tcp_reached()
    assert KEY not in out and not (w.outside / "tool").exists()


async def test_off_leaves_it_alone(w: World) -> None:
    out = await call(w, load(w, "off"), {"outcome": "allow", "reason": "user_once"})
    assert KEY in out and Path(w.outside / "tool").exists()
