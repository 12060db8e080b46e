"""`bash`: run a command in its own process group; timeouts and aborts kill the whole group."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import tempfile
from typing import IO, Any, ClassVar

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.tools.base import Tool, ToolEnv
from jarvis.core.tools.builtins._args import int_arg, text_arg
from jarvis.core.tools.builtins._output import cap

_GRACE_SEC = 2.0
MAX_TIMEOUT_SEC = 600


class BashTool(Tool):
    name = "bash"
    description = (
        "Run a shell command with /bin/bash in the workspace and return its exit code, stdout "
        "and stderr. Use for git, builds, tests and other command-line work."
    )
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "command": {"type": "string", "description": "The command line to run."},
            "timeout": {"type": "integer", "description": "Seconds before it is killed (30)."},
        },
        "required": ["command"],
    }
    execution_mode = "sequential"

    def __init__(self, default_timeout: float = 30.0, output_cap: int = 30_000) -> None:
        self.default_timeout = default_timeout
        self.output_cap = output_cap

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        command = text_arg(args, "command")
        if not command.strip():
            return ToolResult(content="argument 'command' is empty", is_error=True)
        timeout = min(
            int_arg(args, "timeout", None, minimum=1) or self.default_timeout, MAX_TIMEOUT_SEC
        )
        # Output goes to temp files, not pipes: a background child holding a pipe open would
        # otherwise keep a finished command waiting.
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            process = await asyncio.create_subprocess_exec(
                "/bin/bash",
                "-c",
                command,
                cwd=env.workspace,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,
            )
            try:
                state = await self._wait(process, timeout, env.call.abort)
            finally:
                # Cancelled or not, nothing the command started may outlive it.
                await _kill_group(process)
            return self._result(state, _read(out), _read(err), process.returncode, timeout)

    async def _wait(
        self, process: asyncio.subprocess.Process, limit_sec: float, abort: asyncio.Event
    ) -> str:
        exited = asyncio.ensure_future(process.wait())
        aborted = asyncio.ensure_future(abort.wait())
        try:
            done, _ = await asyncio.wait(
                {exited, aborted}, timeout=limit_sec, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            aborted.cancel()
        if exited in done:
            return "done"
        exited.cancel()
        return "aborted" if abort.is_set() else "timeout"

    def _result(
        self, state: str, raw_out: bytes, raw_err: bytes, code: int | None, timeout: float
    ) -> ToolResult:
        stdout = raw_out.decode("utf-8", errors="replace")
        stderr = raw_err.decode("utf-8", errors="replace")
        if state == "timeout":
            head = f"timed out after {timeout:g} s; the command and its children were killed"
        elif state == "aborted":
            head = "aborted by the user; the command and its children were killed"
        else:
            head = f"exit code {code}"
        parts = [head, f"stdout:\n{cap(stdout, self.output_cap)}" if stdout else "stdout: (empty)"]
        if stderr:
            parts.append(f"stderr:\n{cap(stderr, self.output_cap)}")
        exit_code = code if state == "done" else None
        return ToolResult(
            content="\n".join(parts),
            is_error=state != "done" or code != 0,
            details={"exit_code": exit_code},
        )


def _read(handle: IO[bytes]) -> bytes:
    handle.seek(0)
    return handle.read()


async def _kill_group(process: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), _GRACE_SEC)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
    # The leader may be gone while children in its group live on: kill the group regardless.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
