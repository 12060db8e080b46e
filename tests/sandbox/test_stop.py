"""Stop kills a sandboxed command at any moment, and the turn ends — through the real server
(HTTP + WebSocket, the scripted model, real bash, real bubblewrap).

Where the Stop lands is placed, not timed: hold points in the bash tool (`_hold.py`: before the
process exists; inside bubblewrap's set-up, before the command) and files the command writes
(running; after it forked `setsid`, `nohup` and double-forked children). After `agent_end`,
nothing with the command's tag and no bubblewrap of this workspace is alive (`/proc`). A
set-up held on the test's FIFO is released only after that, so a sandbox the kill missed
would go on to run the command and be seen.

A server killed with SIGKILL leaves nothing behind either: not while bubblewrap sets up (the
set-up is released once bwrap's outer process has died with the server: bwrap ties its sandbox
to its own life only later, so before the fix the command then ran on as an orphan), not while
the command runs.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
import yaml

from jarvis.core.tools.builtins import _hold as hold
from tests.faults.conftest import JARVIS, jarvis_env, until_healthy
from tests.sandbox.stopping import alive as alive_pid
from tests.sandbox.stopping import appears, none_survive, survivors, tag
from tests.support.hang import HANG_GUARD_SEC
from tests.support.live_server import Tab, live_server, register_credentials
from tests.support.ports import free_port
from tests.support.processes import hud_headers


def bash(command: str) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


COMMANDS = {
    "spawn": "sleep 61.{tag}",
    "setup": "sleep 61.{tag}",
    "running": "touch running; sleep 61.{tag}",
    "forked": (
        "setsid sleep 61.{tag} & nohup sleep 61.{tag} >/dev/null 2>&1 & "
        "( (sleep 61.{tag} &) & ); bash -c 'sleep 61.{tag} & disown'; touch forked; wait"
    ),
}


async def approve(tab: Tab) -> None:
    await tab.send(type="prompt", text="run it")
    request = await tab.next("approval_request")
    await tab.send(type="approval", id=request["id"], answer="allow")


class Release:
    """The writer end of the FIFO the `setup` hold blocks bubblewrap on; `release()` (at the
    latest on exit) lets the held set-up go on."""

    def __init__(self, workspace: Path, point: str) -> None:
        self.fd: int | None = None
        if point == "setup":
            os.mkfifo(workspace / hold.RELEASE)
            self.fd = os.open(workspace / hold.RELEASE, os.O_RDWR)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> Release:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def outer_bwrap(server_pid: int, workspace: Path) -> list[int]:
    """The bubblewrap processes of this workspace whose parent is the server."""
    found = []
    for pid in survivors(f"{workspace}\0"):
        with suppress(OSError):
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            if int(stat[1]) == server_pid:
                found.append(pid)
    return found


@pytest.mark.parametrize("point", list(COMMANDS))
async def test_stop_at_any_point_kills_everything_and_ends_the_turn(
    bwrap: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, point: str
) -> None:
    mark = tag()
    command = COMMANDS[point].format(tag=mark)
    if point in ("spawn", "setup"):
        monkeypatch.setenv(hold.ENV, point)
    sandbox = {"sandbox": "required"}
    with (
        Release(tmp_path, point) as release,
        live_server(tmp_path, [bash(command), "after"], security=sandbox) as server,
    ):
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        await approve(tab)
        ready = tmp_path / (hold.MARKER if point in ("spawn", "setup") else point)
        await appears(ready)
        if point == "setup":  # bubblewrap exists and holds its sandbox before the command
            assert survivors(f"{tmp_path}\0"), "bubblewrap should be setting up"
        await tab.send(type="abort")
        end = await tab.next("agent_end")
        assert end["ended_by"] == "aborted"
        release.release()
        assert survivors(f"61.{mark}", f"{tmp_path}\0") == {}
        await tab.close()


@contextmanager
def served(home: Path, script: list[Any], held: str | None) -> Iterator[tuple[str, Any]]:
    """`jarvis serve` as its own process (so it can be killed), sandbox required."""
    (home / "script.yaml").write_text(yaml.safe_dump(script), encoding="utf-8")
    env = jarvis_env(home)
    env.update(
        JARVIS_MODEL__PROVIDER="faux",
        JARVIS_MODEL__SCRIPT=str(home / "script.yaml"),
        JARVIS_OPENLOOP__ENABLED="false",
        JARVIS_SCHEDULER__ENABLED="false",
        JARVIS_SECURITY__SANDBOX="required",
    )
    env.pop(hold.ENV, None)
    if held is not None:
        env[hold.ENV] = held
    port = free_port()
    with (home / "serve.log").open("a", encoding="utf-8") as log:
        process = subprocess.Popen(
            [JARVIS, "serve", "--port", str(port)],
            env=env,
            cwd=home,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    address = f"127.0.0.1:{port}"
    register_credentials(address, hud_headers())
    try:
        yield address, process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(HANG_GUARD_SEC)


@pytest.mark.parametrize("point", ["setup", "running"])
async def test_a_killed_server_leaves_no_sandbox_behind(
    bwrap: str, tmp_path: Path, point: str
) -> None:
    mark = tag()
    command = f"touch running; sleep 600.{mark}"
    held = point if point == "setup" else None
    with (
        Release(tmp_path, point) as release,
        served(tmp_path, [bash(command), "done"], held) as (address, process),
    ):
        await until_healthy(f"http://{address}")
        tab = await Tab.open(f"ws://{address}/ws")
        await tab.next("session")
        await approve(tab)
        await appears(tmp_path / (hold.MARKER if point == "setup" else "running"))
        outer = outer_bwrap(process.pid, tmp_path)
        assert outer, "bubblewrap should be there"
        process.send_signal(signal.SIGKILL)
        process.wait(HANG_GUARD_SEC)
        while any(Path(f"/proc/{pid}").exists() and alive_pid(pid) for pid in outer):
            await asyncio.sleep(0.02)  # until bwrap's outer process has died with the server
        release.release()
        assert await none_survive(f"600.{mark}", f"{tmp_path}\0") == {}
        await tab.ws.close()
