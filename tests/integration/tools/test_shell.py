"""`bash`, run for real: output, exit codes, timeouts, aborts and the process-group kill."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from jarvis.core.tools.builtins import BashTool
from tests.integration.tools._helpers import alive, run, tool_env

BASH = BashTool()


async def _wait_gone(pid: int) -> bool:
    """Whether the process is gone within 30 s (a signal is delivered, not awaited; the bound
    is only a hang guard, generous for a busy machine)."""
    for _ in range(1500):
        if not alive(pid):
            return True
        await asyncio.sleep(0.02)
    return False


async def _wait_for_file(path: Path) -> None:
    for _ in range(250):
        if path.exists() and path.read_text():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{path} was never written")


async def test_stdout_stderr_and_exit_code_are_labelled(tmp_path: Path) -> None:
    result = await run(BASH, tmp_path, command="echo out; echo err >&2")
    assert result.content == "exit code: 0\nstdout:\nout\nstderr:\nerr"
    assert not result.is_error and result.details["exit_code"] == 0


async def test_empty_stderr_is_left_out(tmp_path: Path) -> None:
    result = await run(BASH, tmp_path, command="echo only")
    assert result.content == "exit code: 0\nstdout:\nonly"
    quiet = await run(BASH, tmp_path, command="true")
    assert quiet.content == "exit code: 0\nstdout: (empty)"


async def test_non_zero_exit_is_an_error(tmp_path: Path) -> None:
    result = await run(BASH, tmp_path, command="echo partial; exit 3")
    assert result.is_error and result.content.startswith("exit code: 3\n")
    assert "partial" in result.content


async def test_a_command_killed_by_a_signal_says_so(tmp_path: Path) -> None:
    result = await run(BASH, tmp_path, command="kill -KILL $$")
    assert result.is_error and "exit code: 137 (killed by SIGKILL)" in result.content


async def test_runs_in_the_workspace_with_bash(tmp_path: Path) -> None:
    result = await run(BASH, tmp_path, command="pwd; echo ${BASH_VERSION:+bash}; [[ 1 == 1 ]]")
    assert result.content.splitlines()[2:4] == [str(tmp_path), "bash"]


async def test_stdin_is_not_inherited(tmp_path: Path) -> None:
    result = await run(BASH, tmp_path, command="cat; echo after")  # inherited: cat waits
    assert "after" in result.content


async def test_timeout_returns_quickly_and_says_so(tmp_path: Path) -> None:
    # Returning at all proves the cut: the command alone would outlast pytest's timeout.
    result = await run(BASH, tmp_path, command="echo started; sleep 3600", timeout=1)
    assert result.is_error and result.details["stopped"] == "timeout"
    assert result.content.startswith("timed out after 1 s; the command and everything it")
    assert "started" in result.content  # what it printed before the kill is kept


async def test_timeout_kills_background_children_too(tmp_path: Path) -> None:
    command = "sleep 60 & echo $! > child.pid; sleep 30"
    await run(BASH, tmp_path, command=command, timeout=1)
    assert await _wait_gone(int((tmp_path / "child.pid").read_text()))


async def test_a_finished_command_does_not_wait_for_its_background_child(tmp_path: Path) -> None:
    # The child inherits stdout: a pipe owned by asyncio would keep the call waiting for it.
    result = await run(BASH, tmp_path, command="sleep 3600 & echo $! > bg.pid; echo done")
    assert "done" in result.content  # returned while the child would still sleep an hour
    assert await _wait_gone(int((tmp_path / "bg.pid").read_text()))


async def test_a_process_that_left_the_group_is_killed_when_the_command_ends(
    tmp_path: Path,
) -> None:
    result = await run(BASH, tmp_path, command="setsid sleep 300 & echo $! > daemon.pid; echo ok")
    assert "ok" in result.content and "1 process(es) it left running were killed" in result.content
    assert _gone(int((tmp_path / "daemon.pid").read_text()))


@pytest.mark.parametrize("stop", ["timeout", "abort"])
async def test_a_double_forked_daemon_dies_with_a_stopped_command(
    tmp_path: Path, stop: str
) -> None:
    # The daemon leaves the group and the session and loses its parent: only a subreaper sees it.
    command = (
        "(setsid sh -c 'echo $$ > daemon.pid.tmp; mv daemon.pid.tmp daemon.pid; exec sleep 300' &);"
        " until [ -s daemon.pid ]; do :; done; touch started; sleep 300"
    )
    abort = asyncio.Event()
    call = asyncio.create_task(
        BASH.execute(
            "c",
            {"command": command, "timeout": 300 if stop == "abort" else 10},
            tool_env(tmp_path, abort),
        )
    )
    if stop == "abort":
        while not (tmp_path / "started").exists():
            await asyncio.sleep(0.01)
        abort.set()
    result = await call
    assert result.details["stopped"] == ("aborted" if stop == "abort" else "timeout")
    assert _gone(int((tmp_path / "daemon.pid").read_text()))


def _gone(pid: int) -> bool:
    """Dead, or a zombie nobody has reaped yet (it runs no more code)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state == "Z"


async def test_a_timeout_above_the_cap_is_lowered(tmp_path: Path) -> None:
    result = await run(BashTool(max_timeout=1), tmp_path, command="sleep 3600", timeout=500)
    assert "timed out after 1 s" in result.content


async def test_the_default_timeout_comes_from_the_constructor(tmp_path: Path) -> None:
    result = await run(BashTool(default_timeout=0.5), tmp_path, command="sleep 30")
    assert "timed out after 0.5 s" in result.content


async def test_abort_kills_the_command_and_its_children(tmp_path: Path) -> None:
    abort = asyncio.Event()
    asyncio.get_running_loop().call_later(0.5, abort.set)
    result = await BASH.execute(  # returns at all only if the abort cut the hour-long sleep
        "c", {"command": "sleep 3600 & echo $! > child.pid; sleep 3600"}, tool_env(tmp_path, abort)
    )
    assert result.is_error and result.content.startswith("aborted by the user")
    assert await _wait_gone(int((tmp_path / "child.pid").read_text()))


async def test_an_aborted_turn_does_not_start_the_command(tmp_path: Path) -> None:
    abort = asyncio.Event()
    abort.set()
    result = await BASH.execute("c", {"command": "touch ran"}, tool_env(tmp_path, abort))
    assert result.is_error and "aborted" in result.content
    assert not (tmp_path / "ran").exists()


async def test_cancelling_the_call_kills_the_group(tmp_path: Path) -> None:
    command = "echo $$ > leader.pid; sleep 60 & echo $! > child.pid; sleep 30"
    task = asyncio.create_task(run(BASH, tmp_path, command=command))
    await _wait_for_file(tmp_path / "child.pid")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for name in ("leader.pid", "child.pid"):
        assert await _wait_gone(int((tmp_path / name).read_text()))


async def test_output_is_capped_with_a_notice(tmp_path: Path) -> None:
    tool = BashTool(output_chars=1000)
    result = await run(tool, tmp_path, command="head -c 5000 /dev/zero | tr '\\0' x")
    assert "[truncated: showing 1,000 of 5,000 characters]" in result.content
    assert "x" * 1000 in result.content and "x" * 1001 not in result.content


async def test_stderr_has_its_own_cap(tmp_path: Path) -> None:
    tool = BashTool(output_chars=1000)
    result = await run(tool, tmp_path, command="echo fine; head -c 3000 /dev/zero | tr '\\0' e >&2")
    assert "stdout:\nfine\nstderr:\n" in result.content
    assert "[truncated: showing 1,000 of 3,000 characters]" in result.content


async def test_huge_output_is_counted_not_kept(tmp_path: Path) -> None:
    tool = BashTool(output_chars=1000)
    result = await run(tool, tmp_path, command="head -c 20000000 /dev/zero | tr '\\0' y")
    assert "[truncated: showing 1,000 of 20,000,000 characters]" in result.content


async def test_multibyte_output_counts_characters(tmp_path: Path) -> None:
    tool = BashTool(output_chars=1000)
    result = await run(tool, tmp_path, command="for i in $(seq 1500); do printf '한'; done")
    assert "한" * 1000 in result.content
    assert "[truncated: showing 1,000 of 1,500 characters]" in result.content


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "missing required argument 'command'"),
        ({"command": 3}, "argument 'command' must be a string, got a number"),
        ({"command": "  "}, "argument 'command' must not be empty"),
        ({"command": "true", "timeout": "10"}, "argument 'timeout' must be a number, got a string"),
        ({"command": "true", "timeout": 0}, "argument 'timeout' must be at least"),
        ({"command": "true", "timeout": True}, "argument 'timeout' must be a number"),
    ],
)
async def test_bad_arguments_are_error_results(
    tmp_path: Path, args: dict[str, object], message: str
) -> None:
    result = await BASH.execute("c", args, tool_env(tmp_path))
    assert result.is_error and result.content.startswith("invalid arguments for bash: ")
    assert message in result.content


async def test_a_missing_workspace_is_a_clear_error(tmp_path: Path) -> None:
    result = await run(BASH, tmp_path / "nope", command="true")
    assert result.is_error and "is not a directory" in result.content
