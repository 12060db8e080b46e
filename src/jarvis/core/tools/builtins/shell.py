"""`bash`: one command in its own process group under a subreaper (see `_reaper`); when it
finishes, times out, is aborted or cancelled, everything it started is killed — children such
as `sleep 100 &` and also daemons that left the group with `setsid` — and the result says so.

With a `Confiner` (`core/confine/`, `security.sandbox`) an outer bash (`_reaper.OUTER_SCRIPT`)
runs inside bubblewrap as PID 1 of its own namespace: read-only system, the workspace
writable, secrets hidden, no network unless a person approved the call, resource limits set.

Nothing is started with a `preexec_fn` from the server (that makes Python copy the whole
process): bwrap is started directly (vfork); the unconfined command through the pre-forked
launcher (`_launch.LAUNCHER`), whose forked outer process is the subreaper and starts
`bash -c CMD` with `posix_spawn` (no outer bash there)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from jarvis.agent_layer.tools import ExecutionMode, ToolResult
from jarvis.core.confine import Confiner
from jarvis.core.confine.judge import network_granted
from jarvis.core.confine.pids import PidsGroup
from jarvis.core.confine.plan import limit_prefix
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.builtins import _hold as hold
from jarvis.core.tools.builtins import _launch as launch
from jarvis.core.tools.builtins import _reaper as reaper
from jarvis.core.tools.builtins._abort import Aborted, until_done
from jarvis.core.tools.builtins._args import number_arg, object_schema, text_arg
from jarvis.core.tools.builtins._capture import Capture
from jarvis.core.tools.builtins._environment import bash_environment
from jarvis.core.tools.builtins._ready import Ready, prepare
from jarvis.core.tools.builtins._tool import BuiltinTool, failure

DEFAULT_TIMEOUT_SEC = 30.0
MAX_TIMEOUT_SEC = 600.0
OUTPUT_CHARS = 30_000
KILL_GRACE_SEC = 2.0

Stopped = Literal["timeout", "aborted"]


@dataclass
class _Run:
    exit_code: int | None
    stopped: Stopped | None
    stdout: str
    stderr: str
    leftovers: int = 0  # processes still running when the command ended, killed by us


class BashTool(BuiltinTool):
    name = "bash"
    description = (
        "Run a shell command with /bin/bash -c in the workspace directory and return its exit "
        "code, stdout and stderr. Use it for git, builds, tests, package tools and other "
        "command-line work. There is no terminal and no stdin: interactive programs will not "
        "work. The command and everything it started are killed when it times out; anything "
        "left running in the background is killed when the command finishes."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        required={"command": {"type": "string", "description": "The command line to run."}},
        optional={
            "timeout": {
                "type": "number",
                "description": f"Seconds before the command is killed (default "
                f"{DEFAULT_TIMEOUT_SEC:g}, at most {MAX_TIMEOUT_SEC:g}).",
            }
        },
    )
    execution_mode: ClassVar[ExecutionMode] = "sequential"

    def __init__(
        self,
        *,
        default_timeout: float = DEFAULT_TIMEOUT_SEC,
        max_timeout: float = MAX_TIMEOUT_SEC,
        output_chars: int = OUTPUT_CHARS,
        kill_grace: float = KILL_GRACE_SEC,
        env_passthrough: tuple[str, ...] = (),
        confiner: Confiner | None = None,
    ) -> None:
        self._env_passthrough = env_passthrough
        self._confiner = confiner
        self._default_timeout = default_timeout
        self._max_timeout = max_timeout
        self._output_chars = output_chars
        self._kill_grace = kill_grace
        self._ready: Ready | None = None  # the next confined call's bwrap, started ahead
        self._drop = weakref.finalize(self, lambda: None)

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        command = text_arg(args, "command", nonempty=True)
        timeout = number_arg(args, "timeout", default=self._default_timeout, minimum=0.001)
        # Capped rather than refused: a model asking for an hour still gets the longest allowed.
        timeout = min(timeout, self._max_timeout)
        if not env.workspace.is_dir():
            return failure(f"the workspace {env.workspace} is not a directory")
        if env.call.abort.is_set():  # the turn is already stopped: never start the command
            return _report(_Run(exit_code=None, stopped="aborted", stdout="", stderr=""), timeout)
        jail = None
        if self._confiner is not None:
            refusal = self._confiner.refusal()
            if refusal is not None:  # `required` and no sandbox: never run it bare
                return failure(refusal)
            if self._confiner.active:
                network = network_granted(env.decision, command)
                jail = _Jail(self._confiner, network, ready=self._take_ready())
        try:
            run = await self._execute(command, env.workspace, timeout, env.call.abort, jail)
        finally:
            if jail is not None:
                if jail.ready is not None:
                    jail.ready.discard()  # only if the call never got to use it
                if jail.group is not None:
                    jail.group.remove()
                asyncio.get_running_loop().call_soon(self._prepare, jail.confiner)
        return _report(run, timeout)

    def _take_ready(self) -> Ready | None:
        ready, self._ready = self._ready, None
        self._drop.detach()
        if ready is not None and (not ready.fresh() or hold.ENV in os.environ):
            ready.discard()  # ended meanwhile; or a test holds bwrap's set-up (fds of its own)
            return None
        return ready

    def _prepare(self, confiner: Confiner) -> None:
        if self._ready is None and hold.ENV not in os.environ:
            try:
                self._ready = prepare(confiner)
            except OSError:  # the next call starts bwrap itself
                self._ready = None
            if self._ready is not None:  # a tool dropped unused takes its bwrap with it
                self._drop = weakref.finalize(self, self._ready.discard)

    async def _execute(
        self,
        command: str,
        workspace: Path,
        limit_sec: float,
        abort: asyncio.Event,
        jail: _Jail | None = None,
    ) -> _Run:
        # Room for `output_chars` characters of any UTF-8 text.
        keep = self._output_chars * 4
        ready = jail.ready if jail is not None else None
        pipes = ready.pipes() if ready is not None else None
        out, err, status = (
            (Capture(keep), Capture(keep), Capture(64))
            if pipes is None
            else (
                Capture(keep, (pipes[0], None)),
                Capture(keep, (pipes[1], None)),
                Capture(64, (pipes[2], None)),
            )
        )
        async with out, err, status:
            environment = bash_environment(os.environ, self._env_passthrough)
            await hold.hold("spawn", workspace, abort)
            if abort.is_set():  # stopped while we got ready: never start it
                return _Run(exit_code=None, stopped="aborted", stdout="", stderr="")
            # Synchronous: from here on there is a process, and the `finally` kills it.
            child = _spawn(command, workspace, environment, out, err, status, jail)
            leftovers = 0
            try:
                await hold.hold("setup", workspace, abort)
                stopped = await _wait(child, status, abort, limit_sec)
            finally:
                # Finished, stopped or cancelled: nothing the command started may outlive it.
                leftovers = await _kill_all(child, self._kill_grace, jail is not None)
        code = _exit_code(child.popen, status) if stopped is None else None
        return _Run(
            exit_code=code,
            stopped=stopped,
            # The final newline of each stream only adds a blank line to the report.
            stdout=out.budget.text(self._output_chars).removesuffix("\n"),
            stderr=err.budget.text(self._output_chars).removesuffix("\n"),
            leftovers=leftovers if stopped is None else 0,
        )


@dataclass
class _Child:
    """The started process (`popen` when it is our own child, None when the launcher started
    it) and the write end of its stdin (closing it lets the outer process exit)."""

    pid: int
    popen: subprocess.Popen[bytes] | None
    stdin: int | None


@dataclass
class _Jail:
    """One confined call: the sandbox, whether it has the network, its pids cgroup (root)."""

    confiner: Confiner
    network: bool
    group: PidsGroup | None = None
    ready: Ready | None = None  # its bwrap, started ahead (`_ready.py`)


def _spawn(
    command: str,
    workspace: Path,
    environment: dict[str, str],
    out: Capture,
    err: Capture,
    status: Capture,
    jail: _Jail | None = None,
) -> _Child:
    if jail is not None:
        return _spawn_confined(command, workspace, environment, (out, err, status), jail)
    preexec = reaper.become_subreaper if reaper.SUPPORTED else None
    fds = [status.write_fd] if reaper.SUPPORTED else []
    if reaper.SUPPORTED:
        # Through the pre-forked launcher: its outer process is the subreaper, no outer bash.
        argv = ["/bin/bash", "-c", command]
    else:  # no subreaper: the process group is the fence
        argv = ["/bin/bash", "-c", command]
        status.close_write_end()
    stdin_read, stdin_write = os.pipe() if reaper.SUPPORTED else (subprocess.DEVNULL, None)
    popen: subprocess.Popen[bytes] | None = None
    try:
        if reaper.SUPPORTED:
            stdio = (stdin_read, out.write_fd, err.write_fd)
            try:
                pid = launch.LAUNCHER.start(argv, workspace, environment, stdio, status.write_fd)
            except launch.LaunchError:  # started here after all: an outer bash, a preexec_fn
                script = reaper.OUTER_SCRIPT.format(status_fd=status.write_fd)
                argv = ["/bin/bash", "-c", script, "bash", command]
                popen = launch.start(argv, workspace, environment, *stdio, fds, preexec)
                pid = popen.pid
        else:
            popen = launch.start(
                argv, workspace, environment, stdin_read, out.write_fd, err.write_fd, fds, preexec
            )
            pid = popen.pid
    except BaseException:
        if stdin_write is not None:
            os.close(stdin_write)
        raise
    finally:
        if stdin_write is not None:
            os.close(stdin_read)
        for capture in (out, err, status):
            capture.close_write_end()
    return _Child(pid, popen, stdin_write)


def _spawn_confined(
    command: str,
    workspace: Path,
    environment: dict[str, str],
    streams: tuple[Capture, Capture, Capture],
    jail: _Jail,
) -> _Child:
    """The outer bash is PID 1 of the sandbox's namespace: orphans come to it, and when it dies
    the kernel kills whatever is left. It first checks that Jarvis is still alive
    (`_launch.lifeline`); as root it moves itself into the call's pids cgroup (`pids.py`) before
    anything forks — unless bwrap was started ahead (`_ready.py`) already in it; then the
    limits, set inside, after bwrap made its user namespace. No `preexec_fn`: Python starts
    bwrap with vfork, not a copy of itself."""
    out, err, status = streams
    alive = launch.lifeline()
    ready, fds = jail.ready, [alive]
    script = f"read -t 0 -u {alive} && exit 0; exec {alive}<&-; "
    if ready is None:
        jail.group = jail.confiner.pids_group()
        if jail.group is not None:
            join = jail.group.join_fd
            script += f"echo 0 >&{join} || exit 125; exec {join}>&-; "
            fds.append(join)
    else:
        jail.group, jail.ready = ready.group, None  # from here on the call's
    if ready is not None:  # bwrap without the command line's last part: its options
        options = jail.confiner.wrap([], workspace, jail.network)[1:-1]
        stdin_write = ready.go(options, environment, command)
        return _Child(ready.popen.pid, ready.popen, stdin_write)
    script += limit_prefix(jail.confiner.limits)
    script += reaper.OUTER_SCRIPT.format(status_fd=status.write_fd)
    argv = jail.confiner.wrap(["/bin/bash", "-c", script, "bash", command], workspace, jail.network)
    block = hold.setup_block(workspace)
    if block is not None:
        argv[1:1] = ["--block-fd", str(block)]
        fds.append(block)
    stdin_read, stdin_write = os.pipe()
    try:
        popen = launch.start(
            argv,
            workspace,
            environment,
            stdin_read,
            out.write_fd,
            err.write_fd,
            [status.write_fd, *fds],
        )
    except BaseException:
        os.close(stdin_write)
        raise
    finally:
        os.close(stdin_read)
        if block is not None:
            os.close(block)
        for capture in streams:
            capture.close_write_end()
        if jail.group is not None:
            jail.group.close_fd()
    return _Child(popen.pid, popen, stdin_write)


async def _wait(
    child: _Child, status: Capture, abort: asyncio.Event, limit_sec: float
) -> Stopped | None:
    """Until the command itself has finished (its status line, or the process's exit)."""
    done = status.closed.wait() if reaper.SUPPORTED else launch.exited(child.popen, child.pid)
    try:
        await until_done(done, abort, limit_sec)
    except TimeoutError:
        return "timeout"
    except Aborted:
        return "aborted"
    return None


def _exit_code(popen: subprocess.Popen[bytes] | None, status: Capture) -> int | None:
    ended = popen.returncode if popen is not None else None
    if not reaper.SUPPORTED:
        return ended
    text = status.budget.text(64).strip()
    return int(text) if text.isdigit() else ended


async def _kill_all(child: _Child, grace: float, confined: bool = False) -> int:
    """Kill what the command left behind, then its outer process; how many processes were left
    to kill (the command's own process is not counted once it had finished). Confined, the
    outer bash is the namespace's init below bwrap: what it left is below that one, and before
    it exists (bwrap still setting up) there is nothing to be gentle with."""
    pid = child.pid
    try:
        if reaper.SUPPORTED:
            inner = reaper.descendants(pid)[:1] if confined else [pid]
            return await reaper.kill_tree(inner[0], grace) if inner else 0
        await _kill_group(child, grace)
        return 0
    finally:
        # Whatever happened above (a second cancellation included), synchronously: stop the
        # outer process, kill everything below it, then it.
        if child.stdin is not None:
            os.close(child.stdin)
            child.stdin = None
        if reaper.SUPPORTED:
            reaper.fence(pid, ours=child.popen is not None)
        _signal_group(pid, signal.SIGKILL)  # the outer process and its group, whatever is left
        await launch.exited(child.popen, pid)


async def _kill_group(child: _Child, grace: float) -> None:
    """SIGTERM the group, give the leader `grace` seconds (then `_kill_all` SIGKILLs it)."""
    _signal_group(child.pid, signal.SIGTERM)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(launch.exited(child.popen, child.pid), grace)


def _signal_group(pgid: int, signum: signal.Signals) -> None:
    # Already gone is the goal, not an error.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def _report(run: _Run, timeout: float) -> ToolResult:
    if run.stopped == "timeout":
        head = f"timed out after {timeout:g} s; the command and everything it started were killed"
    elif run.stopped == "aborted":
        head = "aborted by the user; the command and everything it started were killed"
    else:
        head = f"exit code: {_describe_exit(run.exit_code)}"
    if run.leftovers:
        head += f"; {run.leftovers} process(es) it left running were killed"
    parts = [head, f"stdout:\n{run.stdout}" if run.stdout else "stdout: (empty)"]
    if run.stderr:
        parts.append(f"stderr:\n{run.stderr}")
    return ToolResult(
        content="\n".join(parts),
        is_error=run.stopped is not None or run.exit_code != 0,
        details={"exit_code": run.exit_code, "stopped": run.stopped},
    )


def _describe_exit(code: int | None) -> str:
    """`137 (killed by SIGKILL)`: as a shell reports it, 128 + the signal number (a command that
    itself exits with 137 reads the same; bash cannot tell them apart either)."""
    if code is None:
        return "None"
    signum = -code if code < 0 else code - 128 if code > 128 else 0
    try:
        return f"{code} (killed by {signal.Signals(signum).name})" if signum else str(code)
    except ValueError:
        return str(code)
