"""The tool base class. A tool says what it is; the gate decides whether it may run."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from jarvis.agent_layer.tools import ExecutionMode, ToolCallContext, ToolResult
from jarvis.model_layer.messages import ToolSpec

SourceKind = Literal["builtin", "user", "mcp", "procedure", "agent"]


@dataclass(frozen=True)
class ToolSource:
    """Where a tool comes from; shown in approval requests and part of a rule's fingerprint."""

    kind: SourceKind = "builtin"
    # The user tool file, or the MCP server name.
    name: str = ""

    def label(self) -> str:
        return self.kind if not self.name else f"{self.kind}:{self.name}"


BUILTIN = ToolSource()


@dataclass
class ToolEnv:
    """What tools may rely on besides their arguments."""

    workspace: Path
    call: ToolCallContext
    # The gate's decision for this call (`outcome`, `reason`, `rule`), None without a gate: the
    # OS sandbox opens the network only for what a person approved (`core/confine/judge.py`).
    decision: dict[str, Any] | None = None
    # The OS sandbox's command line for a process the tool starts (user tools:
    # `subprocess.run(env.confine(argv))`); None: no sandbox here (`core/confine/`).
    confine: Callable[[Sequence[str]], list[str]] | None = None


class ToolArgumentError(ValueError):
    """Raised by a tool for a wrong argument; becomes an `is_error` result naming it."""


class Tool:
    """Base class for every tool. Subclasses set the class attributes and override `execute`.

    `execute` returns a `ToolResult`; raising is allowed (the executor turns the exception into
    an `is_error` result) but a clear error result is better.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    parameters: ClassVar[dict[str, Any]] = {"type": "object", "properties": {}}
    execution_mode: ClassVar[ExecutionMode] = "parallel"
    # Destructive file tools carry an irreversible-action warning in approval requests.
    destructive: ClassVar[bool] = False

    @property
    def source(self) -> ToolSource:
        return BUILTIN

    def spec(self) -> ToolSpec:
        # Asked for every tool on every round; built again only when what it shows changed.
        key = (self.name, self.description, id(self.parameters))
        cached: tuple[tuple[str, str, int], ToolSpec] | None = self.__dict__.get("_spec")
        if cached is None or cached[0] != key:
            spec = ToolSpec(
                name=self.name, description=self.description, parameters=self.parameters
            )
            cached = self.__dict__["_spec"] = (key, spec)
        return cached[1]

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        raise NotImplementedError
