"""The registry as the loop sees it: specs re-read every turn, and calls passed through the gate."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from jarvis.agent_layer.tools import ExecutionMode, ToolCallContext, ToolResult
from jarvis.common.logging import get_logger
from jarvis.core.tools.base import Tool, ToolArgumentError, ToolEnv
from jarvis.core.tools.registry import ToolRegistry
from jarvis.model_layer.messages import ToolCall, ToolSpec

_log = get_logger("jarvis.tools")


@dataclass
class GateVerdict:
    """The gate's decision (shown in ACTIVITY) and, when the call may not run, its result."""

    decision: dict[str, Any]
    refusal: ToolResult | None = None


class ToolGate(Protocol):
    """Decides whether one call may run."""

    async def check(self, tool: Tool, call: ToolCall, ctx: ToolCallContext) -> GateVerdict: ...

    async def after_call(
        self, tool: Tool, call: ToolCall, result: ToolResult, ctx: ToolCallContext
    ) -> None: ...


class GatedTools:
    """Implements the loop's `LoopTools` over a `ToolRegistry` and an optional gate."""

    def __init__(
        self,
        registry: ToolRegistry,
        workspace: Path,
        gate: ToolGate | None = None,
        visible: set[str] | None = None,
        hidden: frozenset[str] = frozenset(),
    ) -> None:
        self._registry = registry
        self._workspace = workspace
        self._gate = gate
        self._visible = visible
        # Boundaries: `never` tools everywhere, `ask` tools too in unattended runs.
        self._hidden = hidden
        self._specs: tuple[int, list[ToolSpec]] | None = None  # by the registry's version

    def _shown(self, name: str) -> bool:
        return name not in self._hidden and (self._visible is None or name in self._visible)

    def _tools(self) -> list[Tool]:
        tools = self._registry.tools()
        if self._visible is None and not self._hidden:
            return tools
        return [tool for tool in tools if self._shown(tool.name)]

    def specs(self) -> list[ToolSpec]:
        """Asked several times a turn; built again only after the registry changed."""
        version = self._registry.version
        if self._specs is None or self._specs[0] != version:
            self._specs = (version, [tool.spec() for tool in self._tools()])
        return list(self._specs[1])

    def execution_mode(self, name: str) -> ExecutionMode:
        tool = self._registry.get(name)
        return tool.execution_mode if tool else "parallel"

    async def execute(self, call: ToolCall, ctx: ToolCallContext) -> ToolResult:
        tool = self._registry.get(call.name)
        if tool is None or not self._shown(call.name):
            return ToolResult(content=f"unknown tool: {call.name}", is_error=True)
        if call.arguments_error is not None:
            return ToolResult(
                content=f"The arguments for {call.name} were not valid JSON "
                f"({call.arguments_error}). Call it again with a JSON object.",
                is_error=True,
            )
        if self._gate is None:
            return await self._run(tool, call, ctx)
        if getattr(self._gate, "unattended", False) and not ctx.unattended:
            # What a tool starts (a sub-agent) must know nobody watches this run.
            ctx = dataclasses.replace(ctx, unattended=True)
        verdict = await self._gate.check(tool, call, ctx)
        if verdict.refusal is not None:
            return verdict.refusal
        result = await self._run(tool, call, ctx, verdict.decision)
        result.details.setdefault("decision", verdict.decision)
        await self._gate.after_call(tool, call, result, ctx)
        return result

    async def _run(
        self,
        tool: Tool,
        call: ToolCall,
        ctx: ToolCallContext,
        decision: dict[str, Any] | None = None,
    ) -> ToolResult:
        env = ToolEnv(workspace=self._workspace, call=ctx, decision=decision)
        try:
            result: Any = await tool.execute(call.id, call.arguments, env)
        except ToolArgumentError as exc:
            return ToolResult(content=f"invalid arguments for {tool.name}: {exc}", is_error=True)
        except Exception as exc:  # tool code is the user's too; never let it crash the loop
            _log.warning("tool %s raised: %s", tool.name, exc, exc_info=True)
            return ToolResult(
                content=f"{tool.name} failed: {type(exc).__name__}: {exc}", is_error=True
            )
        if not isinstance(result, ToolResult):
            return ToolResult(content=str(result))
        return result
