"""The sandbox around bash, beyond the attacks: what still works inside, the network a person
granted, the `auto` / `required` / `off` modes, and the end of a call."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.core.confine import Confiner
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.builtins.shell import BashTool
from tests.sandbox.world import LIMITS, World, world


@pytest.fixture
def w(monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    with world(monkeypatch) as planted:
        yield planted


def env(w: World, decision: dict[str, str] | None = None) -> ToolEnv:
    ctx = ToolCallContext("s1", "main", 1, asyncio.Event())
    return ToolEnv(workspace=w.ws, call=ctx, decision=decision)


async def run(
    w: World, command: str, tool: BashTool, decision: dict[str, str] | None = None
) -> str:
    result = await tool.execute("c", {"command": command}, env(w, decision))
    return result.content


def confined(w: World, mode: str = "required", bwrap: str | None = None) -> BashTool:
    box = Confiner(mode, LIMITS, w.home, w.data, bwrap=bwrap)  # type: ignore[arg-type]
    return BashTool(confiner=box, kill_grace=0.5)


async def test_work_in_the_workspace_goes_on(bwrap: str, w: World) -> None:
    (w.ws / "src.txt").write_text("hello\n")
    out = await run(
        w,
        "cat src.txt && echo built > out.txt && mkdir -p d && git init -q . && git status "
        "--short | head -3 && echo tmp > /tmp/t && cat /tmp/t && ls -a ~ | head -50",
        confined(w),
    )
    assert "exit code: 0" in out, out
    assert (w.ws / "out.txt").read_text() == "built\n"
    assert (w.ws / ".git").is_dir()
    assert not Path("/tmp/t").exists()  # /tmp is the sandbox's own
    assert ".bashrc" in out  # the home is there, read-only


async def test_host_tmp_and_run_are_not_visible(bwrap: str, w: World, tmp_path: Path) -> None:
    (tmp_path / "host-file").write_text("x")
    out = await run(w, f"ls {tmp_path}/host-file; ls /run | wc -l", confined(w))
    assert "No such file" in out
    assert "stdout:\n0\n" in out  # an empty /run: no sockets of the host


async def test_a_person_approving_the_call_grants_the_network(bwrap: str, w: World) -> None:
    command = w.fill("exec 3<>/dev/tcp/127.0.0.1/{tcp}")
    await run(
        w, command, confined(w), {"outcome": "allow", "reason": "rule:x", "rule": "x: allow bash *"}
    )
    assert not w.tcp_reached()
    await run(w, command, confined(w), {"outcome": "allow", "reason": "user_once"})
    assert w.tcp_reached()


async def test_a_rule_naming_a_network_program_grants_it_a_star_rule_does_not(
    bwrap: str, w: World
) -> None:
    command = w.fill("curl -s -m 5 -o /dev/null http://127.0.0.1:{tcp}/")
    star = {"outcome": "allow", "reason": "rule:a.yaml", "rule": "a.yaml: allow bash *"}
    curl = {"outcome": "allow", "reason": "rule:a.yaml", "rule": "a.yaml: allow bash curl *"}
    await run(w, command, confined(w), star)
    assert not w.tcp_reached()
    await run(w, command, confined(w), curl)
    assert w.tcp_reached()


async def test_what_it_leaves_running_is_killed_and_reported(bwrap: str, w: World) -> None:
    out = await run(w, "sleep 100 & setsid sleep 200 & echo started", confined(w))
    assert "2 process(es) it left running were killed" in out, out


async def test_a_timeout_stops_it(bwrap: str, w: World) -> None:
    result = await confined(w).execute("c", {"command": "sleep 100", "timeout": 0.5}, env(w))
    assert result.details["stopped"] == "timeout"


async def test_auto_without_bubblewrap_says_so_once_and_runs_on_the_gate(
    w: World, caplog: pytest.LogCaptureFixture
) -> None:
    box = Confiner("auto", LIMITS, w.home, w.data, bwrap="/nonexistent/bwrap")
    with caplog.at_level(logging.WARNING, logger="jarvis.sandbox"):
        first, second = box.announce(), box.announce()
    assert first is not None and "\n" not in first and "gate alone" in first
    assert second == first
    assert len([r for r in caplog.records if "gate alone" in r.getMessage()]) <= 1
    out = await run(w, "echo ran > made", confined(w, "auto", "/nonexistent/bwrap"))
    assert "exit code: 0" in out and (w.ws / "made").exists()


async def test_required_without_bubblewrap_refuses_in_one_line(w: World) -> None:
    result = await confined(w, "required", "/nonexistent/bwrap").execute(
        "c", {"command": "echo ran > made"}, env(w)
    )
    assert result.is_error and "required" in result.content and "\n" not in result.content
    assert not (w.ws / "made").exists()


async def test_off_runs_without_it(bwrap: str, w: World) -> None:
    out = await run(w, f"echo pwned > {w.outside}/off", confined(w, "off"))
    assert "exit code: 0" in out and (w.outside / "off").exists()


async def test_many_confined_calls_at_once_each_get_their_own_output(bwrap: str, w: World) -> None:
    # Calls side by side share nothing: each one's descriptors are its own (the double close
    # that broke this under load is pinned by tests/unit/core/test_pids_group.py).
    tool = confined(w)
    outs = await asyncio.gather(*(run(w, f"echo call-{n}", tool) for n in range(24)))
    assert [f"call-{n}" in out for n, out in enumerate(outs)] == [True] * 24
