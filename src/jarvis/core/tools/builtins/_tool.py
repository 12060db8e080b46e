"""The built-ins' common base: expected failures come back as error results, never raised."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.tools.base import Tool, ToolArgumentError, ToolEnv
from jarvis.core.tools.builtins._args import display_path


def failure(message: str, **details: Any) -> ToolResult:
    return ToolResult(content=message, is_error=True, details=details)


class BuiltinTool(Tool):
    """Subclasses implement `_run`; a wrong argument or an OS error becomes a clear error result
    here, once, instead of a try block in every tool."""

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        if not isinstance(args, dict):
            return failure(f"invalid arguments for {self.name}: expected a JSON object")
        try:
            return await self._run(args, env)
        except ToolArgumentError as exc:
            return failure(f"invalid arguments for {self.name}: {exc}")
        except OSError as exc:
            return failure(f"{self.name} failed: {describe_os_error(exc, env.workspace)}")

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        raise NotImplementedError


def describe_os_error(exc: OSError, workspace: Path) -> str:
    """`permission denied: notes/a.txt` rather than `[Errno 13] Permission denied: '/abs/...'`."""
    reason = (exc.strerror or type(exc).__name__).lower()
    if exc.filename is None:
        return reason
    return f"{reason}: {display_path(Path(str(exc.filename)), workspace)}"
