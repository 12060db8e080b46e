"""Approved procedures as `procedure_<name>` tools, visible only to the agent that learned them.

`ProcedureTools` wraps a session's tool surface: the library is read every turn (a cached
directory listing), so an approval shows up on the next turn without a restart. A stored plan
runs step by step through the wrapped executor — the session's policy, plugins and approvals
apply to every step (a `bash` step asks) — and stops at the first failure or denial. Without a
plan, or with inputs missing, the tool returns the recipe for the agent to follow.
"""

from __future__ import annotations

import json
from typing import Any

from jarvis.agent_layer.tools import ExecutionMode, LoopTools, ToolCallContext, ToolResult
from jarvis.core.procedures.distill import fill_plan
from jarvis.core.procedures.files import ProcedureLibrary
from jarvis.core.procedures.model import Procedure
from jarvis.model_layer.messages import ToolCall, ToolSpec

FOLLOW_EVERY_STEP = "단계를 건너뛰지 말고 각 도구 호출을 실제로 실행하라"
_RESULT_PREVIEW = 400


def approved_procedures(library: ProcedureLibrary, agent: str) -> list[Procedure]:
    return [p for p in library.of_agent(agent) if p.status == "approved" and not p.is_pattern]


def recipe(procedure: Procedure, args: str) -> str:
    """The procedure as instructions (seed 000: the agent follows it, every call for real)."""
    body = procedure.body.replace("{{args}}", args)
    return f"[{procedure.name}] {procedure.description}\n{body}\n\n{FOLLOW_EVERY_STEP}."


def _spec(procedure: Procedure) -> ToolSpec:
    properties: dict[str, Any] = {name: {"type": "string"} for name in procedure.inputs}
    properties["request"] = {"type": "string", "description": "What this run is for."}
    return ToolSpec(
        name=procedure.tool_name,
        description=f"Learned procedure: {procedure.description or procedure.name}",
        parameters={"type": "object", "properties": properties},
    )


class ProcedureTools:
    def __init__(self, inner: LoopTools, library: ProcedureLibrary, agent_id: str) -> None:
        self._inner = inner
        self._library = library
        self._agent_id = agent_id
        # The library's listing last seen (it is the same list while the directory is
        # unchanged), with the approved procedures and their specs made from it.
        self._seen: object = None
        self._by_name: dict[str, Procedure] = {}
        self._specs: list[ToolSpec] = []

    def _procedures(self) -> dict[str, Procedure]:
        entries = self._library.entries()
        if entries is not self._seen:
            approved = approved_procedures(self._library, self._agent_id)
            self._by_name = {p.tool_name: p for p in approved}
            self._specs = [_spec(p) for p in self._by_name.values()]
            self._seen = entries
        return self._by_name

    def specs(self) -> list[ToolSpec]:
        self._procedures()
        return [*self._inner.specs(), *self._specs]

    def execution_mode(self, name: str) -> ExecutionMode:
        if name in self._procedures():
            return "sequential"
        return self._inner.execution_mode(name)

    async def execute(self, call: ToolCall, ctx: ToolCallContext) -> ToolResult:
        procedure = self._procedures().get(call.name)
        if procedure is None:
            return await self._inner.execute(call, ctx)
        values = {k: v for k, v in call.arguments.items() if k in procedure.inputs}
        if not procedure.plan or set(values) != set(procedure.inputs):
            request = str(
                call.arguments.get("request") or json.dumps(call.arguments, ensure_ascii=False)
            )
            return ToolResult(content=recipe(procedure, request))
        return await self._run_plan(procedure, values, call, ctx)

    async def _run_plan(
        self, procedure: Procedure, values: dict[str, Any], call: ToolCall, ctx: ToolCallContext
    ) -> ToolResult:
        lines: list[str] = []
        steps = fill_plan(procedure.plan, values)
        for number, step in enumerate(steps, start=1):
            result = await self._inner.execute(
                ToolCall(id=f"{call.id}-{number}", name=step.tool, arguments=step.args), ctx
            )
            lines.append(f"{number}. {step.tool}: {result.content[:_RESULT_PREVIEW]}")
            if result.is_error or result.denial is not None:
                lines.append(f"stopped at step {number} of {len(steps)}")
                return ToolResult(
                    content="\n".join(lines), is_error=True, denial=result.denial,
                    details={"procedure": procedure.name, "stopped_at": number},
                )  # fmt: skip
        return ToolResult(content="\n".join(lines), details={"procedure": procedure.name})
