"""The unconfined `bash` starts through the pre-forked launcher (`_launch.LAUNCHER`): the server
forks nothing with a `preexec_fn`; the outer bash is the launcher's child, still a child
subreaper (a `setsid` daemon comes back to it and is killed); a launcher that died is replaced
on the next call."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from jarvis.core.tools.builtins import BashTool
from jarvis.core.tools.builtins import _hold as hold
from tests.integration.tools._helpers import run, tool_env

BASH = BashTool()


# The command's parent is the outer bash; this prints the outer bash's parent.
PARENT_OF_OUTER = "awk '/^PPid:/ {print $2}' /proc/$PPID/status"


def launcher_pid(content: str) -> int:
    return int(content.split("stdout:\n", 1)[1].split()[0])


async def test_the_outer_bash_is_the_launchers_child_and_a_subreaper(tmp_path: Path) -> None:
    command = f"{PARENT_OF_OUTER}; setsid sleep 61.7315 &"
    result = await run(BASH, tmp_path, command=command)
    launcher = launcher_pid(result.content)
    assert launcher != os.getpid()
    assert b"_launcher_main" in Path(f"/proc/{launcher}/cmdline").read_bytes()
    # The setsid daemon was re-parented to the outer bash (a subreaper) and killed with it.
    assert "1 process(es) it left running were killed" in result.content, result.content


async def test_a_dead_launcher_is_replaced(tmp_path: Path) -> None:
    first = launcher_pid((await run(BASH, tmp_path, command=PARENT_OF_OUTER)).content)
    os.kill(first, signal.SIGKILL)
    result = await run(BASH, tmp_path, command=f"{PARENT_OF_OUTER}; echo ok")
    assert result.content.endswith("ok"), result.content
    assert launcher_pid(result.content) != first


async def test_the_command_is_started_in_the_calls_first_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is awaited between the call and the spawn (the output pipes are watched, not set
    up as transports): on a busy server each awaited step is every session's work. The `spawn`
    hold point marks the moment right before the process is started."""
    monkeypatch.setenv(hold.ENV, "spawn")
    abort = asyncio.Event()
    call = asyncio.create_task(BASH.execute("c", {"command": "true"}, tool_env(tmp_path, abort)))
    await asyncio.sleep(0)  # the call's first step
    assert (tmp_path / hold.MARKER).read_text() == "spawn"
    abort.set()
    assert "aborted" in (await call).content


async def test_the_command_has_only_stdin_stdout_and_stderr(tmp_path: Path) -> None:
    """No status pipe, no launcher socket, no outer stdin: fds 0 (/dev/null), 1 and 2."""
    # Listed into a file: a pipeline would show bash's own pipe to `awk` while it forks.
    command = "ls -l /proc/$$/fd > fds && awk 'NR > 1 {print $9, $11}' fds"
    result = await run(BASH, tmp_path, command=command)
    lines = result.content.split("stdout:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in lines] == ["0", "1", "2"], result.content
    assert lines[0] == "0 /dev/null", result.content


async def test_the_command_runs_in_the_outer_processs_session(tmp_path: Path) -> None:
    """The outer process leads its own session and group, so one signal reaches the command."""
    command = "awk '{print $5, $6}' /proc/$$/stat; echo $PPID"
    result = await run(BASH, tmp_path, command=command)
    group_and_session, outer = result.content.split("stdout:\n", 1)[1].splitlines()
    assert group_and_session == f"{outer} {outer}", result.content


async def test_sigpipe_ends_a_writer_as_in_a_terminal(tmp_path: Path) -> None:
    """Python ignores SIGPIPE; the command gets the default back (`yes` dies of it)."""
    result = await run(BASH, tmp_path, command="yes | head -1; echo ${PIPESTATUS[0]}")
    assert result.content.endswith("y\n141"), result.content


def _launcher_children(launcher: int) -> list[int]:
    children = Path(f"/proc/{launcher}/task/{launcher}/children").read_text().split()
    return [int(pid) for pid in children]


async def test_a_killed_spare_is_replaced(tmp_path: Path) -> None:
    """The launcher keeps one outer process forked ahead (the spare); killed before it took a
    request, another takes its place and the next command runs."""
    launcher = launcher_pid((await run(BASH, tmp_path, command=PARENT_OF_OUTER)).content)
    spares = _launcher_children(launcher)
    assert spares, "no spare waiting"
    for spare in spares:
        os.kill(spare, signal.SIGKILL)
    result = await run(BASH, tmp_path, command=f"{PARENT_OF_OUTER}; echo ok")
    assert result.content.endswith(f"{launcher}\nok"), result.content
