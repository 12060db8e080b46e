"""A confined call whose bubblewrap was started ahead (`_ready.py`): after a call, the tool starts
the next call's bwrap (as root already in its own pids cgroup) waiting for its options. The call
that takes it gets the same sandbox, environment and limits as a bwrap started by the call, its
own network decision, and a Stop still kills everything; one never used goes away with its
cgroup. The attack corpus runs through both (`test_attacks.py`, `started-ahead`)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.builtins import _hold as hold
from jarvis.core.tools.builtins.shell import BashTool
from tests.sandbox.stopping import appears, survivors, tag
from tests.sandbox.world import World, bash_tool, started_ahead

USER_ONCE = {"outcome": "allow", "reason": "user_once"}
# What a sandboxed command can see of its own set-up: environment, limits, identity, the
# filesystem's shape. The same for a bwrap started by the call and one started ahead.
PROBE = (
    "env | sort; ulimit -u -v -f; id -u; pwd; ls /run | wc -l; touch /etc/x 2>&1; "
    "echo tmp > /tmp/t && cat /tmp/t; grep -E '^(NoNewPrivs|CapEff|Seccomp):' /proc/self/status; "
    "ls -d ~/.ssh/* 2>&1; cat /proc/1/cmdline | tr '\\0' ' ' | cut -c1-40"
)


def env(
    w: World, decision: dict[str, str] | None = None, abort: asyncio.Event | None = None
) -> ToolEnv:
    ctx = ToolCallContext("s1", "main", 1, abort or asyncio.Event())
    return ToolEnv(workspace=w.ws, call=ctx, decision=decision)


async def run(
    tool: BashTool, w: World, command: str, decision: dict[str, str] | None = None
) -> str:
    result = await tool.execute("c", {"command": command}, env(w, decision))
    await asyncio.sleep(0)  # the next call's bwrap is started in the step after
    return result.content


async def test_a_bwrap_started_ahead_gives_the_same_sandbox(bwrap: str, w: World) -> None:
    tool = bash_tool(w, sandbox=True)
    others = set(started_ahead())
    by_the_call = await run(tool, w, PROBE)
    waiting = set(started_ahead()) - others
    assert waiting, "no bubblewrap waiting for the next call"
    ahead = await run(tool, w, PROBE)
    assert ahead == by_the_call
    assert "JARVIS" not in ahead and "exit code: 0" in ahead, ahead
    now = set(started_ahead()) - others
    assert now and not waiting & now  # that one was used; a new one waits


async def test_each_call_gets_its_own_network_decision(bwrap: str, w: World) -> None:
    tool = bash_tool(w, sandbox=True)
    command = w.fill("exec 3<>/dev/tcp/127.0.0.1/{tcp}")
    await run(tool, w, command)
    assert not w.tcp_reached()
    await run(tool, w, command, USER_ONCE)  # started ahead without knowing it would get it
    assert w.tcp_reached()
    await run(tool, w, command)
    assert not w.tcp_reached()


async def test_a_stop_kills_what_a_call_started_ahead_left(bwrap: str, w: World) -> None:
    tool = bash_tool(w, sandbox=True)
    others = set(started_ahead())
    await run(tool, w, "true")
    assert set(started_ahead()) - others
    mark = tag()
    abort = asyncio.Event()
    command = (
        f"setsid sleep 61.{mark} & ( (sleep 61.{mark} &) & ); sleep 61.{mark} & touch forked; wait"
    )
    call = asyncio.create_task(tool.execute("c", {"command": command}, env(w, abort=abort)))
    await appears(w.ws / "forked")
    abort.set()
    result = await call
    assert result.details["stopped"] == "aborted", result.content
    assert not survivors(f"61.{mark}")


async def test_one_never_used_goes_away_with_its_cgroup(
    bwrap: str, w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = bash_tool(w, sandbox=True)
    others = set(started_ahead())
    await run(tool, w, "true")
    (waiting,) = set(started_ahead()) - others
    groups = _groups_of(waiting, bwrap)
    monkeypatch.setenv(hold.ENV, "spawn")  # a test hold: the call starts bwrap itself
    abort = asyncio.Event()
    call = asyncio.create_task(tool.execute("c", {"command": "true"}, env(w, abort=abort)))
    await appears(w.ws / hold.MARKER)
    abort.set()
    result = await call
    assert "aborted" in result.content
    assert not Path(f"/proc/{waiting}").exists()
    assert not [group for group in groups if group.exists()]


def _groups_of(pid: int, bwrap: str) -> list[Path]:
    """The per-call pids cgroup it sits in (as root), as a directory; none for other users.
    Read once it is bwrap (as root a bash joins the group first, then execs bwrap)."""
    while not Path(f"/proc/{pid}/cmdline").read_bytes().startswith(bwrap.encode() + b"\0"):
        pass
    found = []
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "pids" in controllers.split(",") and "/jarvis/" in path:
            found.append(Path("/sys/fs/cgroup/pids") / path.lstrip("/"))
    if os.geteuid() == 0 and Path("/sys/fs/cgroup/pids/cgroup.procs").exists():
        assert found, "as root the waiting bwrap is in a per-call pids cgroup"
    return found
