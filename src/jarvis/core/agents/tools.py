"""The tools that start other agents: `agent_<name>` (one sub-agent), `orchestrate` (a pattern
or pipeline over all of them) and `ask_agent` (another top-level agent). Their arguments are
only what to do; which tools the started agents get is decided by code (`selection.py`)."""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.common.i18n import Language, t
from jarvis.core.agents.orchestrator import Orchestration, OrchestrationResult
from jarvis.core.agents.patterns import PATTERNS, parse_pipeline
from jarvis.core.agents.runtime import SubAgentHost
from jarvis.core.agents.specs import SubAgentSpec
from jarvis.core.tools.base import Tool, ToolArgumentError, ToolEnv, ToolSource

AGENT_SOURCE = ToolSource(kind="agent")
_TASK = {"type": "string", "description": "What the agent should do, with everything it needs."}


def _text(args: dict[str, Any], key: str) -> str:
    value = args.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ToolArgumentError(f"'{key}' must be a non-empty string")
    return value.strip()


def _too_deep(ctx: ToolCallContext, limit: int, lang: Language) -> ToolResult | None:
    # The caller's path has one entry per level already running; a new agent adds one.
    if len(ctx.path) > limit:
        return ToolResult(content=t("agents.too_deep", lang, limit=limit), is_error=True)
    return None


def orchestration_result(result: OrchestrationResult, limit: int, lang: Language) -> ToolResult:
    if result.ended_by == "budget":
        return ToolResult(content=t("agents.budget", lang, limit=limit, text=result.text))
    if result.ended_by == "aborted":
        return ToolResult(content=t("agents.aborted", lang), is_error=True)
    if result.ended_by == "no_agents":
        return ToolResult(content=t("agents.no_subagents", lang), is_error=True)
    return ToolResult(content=result.text, is_error=result.ended_by == "failed")


class _AgentTool(Tool):
    @property
    def source(self) -> ToolSource:
        return AGENT_SOURCE


class SubAgentTool(_AgentTool):
    """`agent_<name>`: hand one task to one sub-agent."""

    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {"task": _TASK},
        "required": ["task"],
    }

    def __init__(self, spec: SubAgentSpec, host: SubAgentHost) -> None:
        self.name = spec.tool_name  # type: ignore[misc]
        self.description = (  # type: ignore[misc]
            f"Delegate a task to the sub-agent {spec.name}: {spec.description}".strip()
        )
        self.spec_name = spec.name
        self.host = host

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        task, ctx = _text(args, "task"), env.call
        lang = ctx.speaks(self.host.language)
        refused = _too_deep(ctx, self.host.limits.max_depth, lang)
        if refused is not None:
            return refused
        spec = self.host.subagents().get(self.spec_name)
        if spec is None:  # its file was deleted or broke since the tool was listed
            known = ", ".join(self.host.subagents()) or "-"
            text = t("agents.unknown_agent", lang, name=self.spec_name, known=known)
            return ToolResult(content=text, is_error=True)
        orchestration = Orchestration(self.host, ctx)
        done = await orchestration.delegate(spec, task)
        if done.ended_by == "aborted":
            ended = "aborted"
        elif done.ok:
            ended = "answer"
        else:
            ended = "budget" if orchestration.budget.exhausted else "failed"
        result = OrchestrationResult(done.text or (done.error or ""), [done], ended)
        return orchestration_result(result, self.host.limits.max_model_calls, lang)


class OrchestrateTool(_AgentTool):
    name = "orchestrate"
    execution_mode = "sequential"
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "pattern": {
                "type": "string",
                "description": f"One of {', '.join(PATTERNS)}, or several joined by commas.",
            },
            "task": _TASK,
        },
        "required": ["pattern", "task"],
    }

    def __init__(self, host: SubAgentHost) -> None:
        self.host = host
        agents = ", ".join(host.subagents()) or "-"
        self.description = t(  # type: ignore[misc]
            "agents.orchestrate_description", host.language, agents=agents
        )

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        lang = env.call.speaks(self.host.language)
        try:
            patterns = parse_pipeline(_text(args, "pattern"))
        except ValueError as exc:
            raise ToolArgumentError(str(exc)) from None
        task = _text(args, "task")
        refused = _too_deep(env.call, self.host.limits.max_depth, lang)
        if refused is not None:
            return refused
        result = await Orchestration(self.host, env.call).run(patterns, task)
        return orchestration_result(result, self.host.limits.max_model_calls, lang)


class AgentAsker(Protocol):
    """Runs a top-level agent on a question for another agent's turn (the app implements it)."""

    def agent_ids(self) -> list[str]: ...

    async def ask(self, agent_id: str, question: str, ctx: ToolCallContext) -> ToolResult: ...


class AskAgentTool(_AgentTool):
    name = "ask_agent"
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "agent": {"type": "string", "description": "The id of the agent to ask."},
            "question": {"type": "string", "description": "The question, self-contained."},
        },
        "required": ["agent", "question"],
    }

    def __init__(self, asker: AgentAsker, language: Language, max_depth: int) -> None:
        self.asker = asker
        self.language = language
        self.max_depth = max_depth
        agents = ", ".join(asker.agent_ids())
        self.description = t(  # type: ignore[misc]
            "agents.ask_agent_description", language, agents=agents
        )

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        agent, question, ctx = _text(args, "agent"), _text(args, "question"), env.call
        lang = ctx.speaks(self.language)
        known = self.asker.agent_ids()
        if agent not in known:
            text = t("agents.unknown_agent", lang, name=agent, known=", ".join(known))
            return ToolResult(content=text, is_error=True)
        if agent == ctx.agent_id or agent in ctx.path:
            text = t("agents.ask_self", lang, name=agent)
            return ToolResult(content=text, is_error=True)
        refused = _too_deep(ctx, self.max_depth, lang)
        if refused is not None:
            return refused
        return await self.asker.ask(agent, question, ctx)
