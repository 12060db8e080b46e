"""Running one sub-agent: its own prompt and code-chosen tools, the parent's gate, approvals in
the parent session's windows (tagged with the agent path), the parent's abort, a model-call
budget shared by the whole orchestration, and a short-term memory by `memory.stm`."""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from jarvis.agent_layer.events import EventSink, MessageUpdate
from jarvis.agent_layer.loop import AgentLoopConfig, LoopResult, run_agent_loop
from jarvis.agent_layer.tools import LoopTools, ToolCallContext
from jarvis.common.clock import Clock
from jarvis.common.i18n import Language
from jarvis.common.logging import get_logger
from jarvis.core.agents.selection import DEFAULT_MAX_DEPTH, subagent_tools
from jarvis.core.agents.specs import SubAgentSpec
from jarvis.core.policy.gate import Gate
from jarvis.core.tools.executor import GatedTools
from jarvis.core.tools.registry import ToolRegistry
from jarvis.memory.episodes import make_episode
from jarvis.memory.service import MemoryScope, MemoryService
from jarvis.model_layer.config import StreamOptions
from jarvis.model_layer.events import ProviderError, StreamEvent
from jarvis.model_layer.messages import AssistantMessage, LLMContext, Message, UserMessage
from jarvis.model_layer.provider import Provider

_log = get_logger("jarvis.agents")
_STM_KEYS = 256  # short-term memories kept (least recently used dropped)
_STM_DELEGATIONS = 10  # earlier delegations one memory keeps
_NOTE_CHARS = 500  # of one blackboard result in the shared work memory


class NestedEvent(BaseModel):
    """An event of work started inside a turn (a sub-agent, an asked team agent), carried to
    the session's windows with who did it: `agent_path` outermost first."""

    type: Literal["agent_event"] = "agent_event"
    agent_path: list[str]
    event: dict[str, Any] = Field(default_factory=dict)


def loop_config(max_turns: int, lang: Language) -> AgentLoopConfig:
    """A sub-agent's loop: its lines and a failed model call's line in the person's language."""
    return AgentLoopConfig(max_turns=max_turns, language=lang, options=StreamOptions(language=lang))


def nested_sink(sink: EventSink | None, path: tuple[str, ...]) -> EventSink:
    """Streamed text stays inside: the nested agent's answer comes back as the tool result, and
    a blackboard of agents would otherwise flood every window with deltas."""

    def emit(event: BaseModel) -> None:
        if sink is not None and not isinstance(event, MessageUpdate):
            sink(NestedEvent(agent_path=list(path), event=event.model_dump(mode="json")))

    return emit


class OrchestrationLimits(BaseModel):
    """What keeps delegation safe and cheap (settings `agents.*`, `JARVIS_AGENTS__…`)."""

    model_config = ConfigDict(frozen=True)

    max_depth: int = Field(
        DEFAULT_MAX_DEPTH, ge=1, le=4, description="Levels of agents below a top-level one."
    )
    max_model_calls: int = Field(
        24, ge=1, description="Model calls per orchestration (one agent_<name> call is one too)."
    )
    blackboard_concurrency: int = Field(4, ge=1, description="Blackboard agents at once.")
    supervisor_steps: int = Field(6, ge=1, description="Delegations a supervisor may make.")
    max_turns: int = Field(8, ge=1, description="Rounds of one sub-agent's loop.")


class ModelBudget:
    """Model calls left for one orchestration; every sub-agent and the supervisor draw on it."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    @property
    def exhausted(self) -> bool:
        return self.used >= self.limit

    def take(self) -> bool:
        if self.exhausted:
            return False
        self.used += 1
        return True


class BudgetedProvider(Provider):
    """A provider that refuses once the orchestration's budget is spent."""

    name = "budgeted"

    def __init__(self, inner: Provider, budget: ModelBudget) -> None:
        self.inner = inner
        self.budget = budget

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        if not self.budget.take():
            message = f"orchestration budget of {self.budget.limit} model calls used up"
            yield ProviderError(message=message)
            return
        async for event in self.inner.stream(model, ctx, options):
            yield event


class ShortTermMemory:
    """Earlier delegations a sub-agent sees again, by `memory.stm`: per parent session, per
    agent (across sessions, within the person's scope), or nothing (per task)."""

    def __init__(self) -> None:
        self._items: OrderedDict[tuple[str, str, str], list[Message]] = OrderedDict()

    @staticmethod
    def key(spec: SubAgentSpec, ctx: ToolCallContext) -> tuple[str, str, str] | None:
        scope = spec.memory.stm
        if scope == "per_task":
            return None
        where = ctx.session_id if scope == "per_parent_session" else "*"
        return (ctx.user_id, where, spec.name)

    def load(self, key: tuple[str, str, str] | None) -> list[Message]:
        if key is None or key not in self._items:
            return []
        self._items.move_to_end(key)
        return list(self._items[key])

    def add(self, key: tuple[str, str, str] | None, task: str, answer: str) -> None:
        if key is None:
            return
        kept = self._items.get(key, [])
        pair: list[Message] = [UserMessage(content=task), AssistantMessage(content=answer)]
        self._items[key] = (kept + pair)[-2 * _STM_DELEGATIONS :]
        self._items.move_to_end(key)
        while len(self._items) > _STM_KEYS:
            self._items.popitem(last=False)


@dataclass
class Delegation:
    agent: str
    task: str
    text: str
    ended_by: str
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.ended_by in ("answer", "final_tool")


@dataclass
class SubAgentHost:
    """What sub-agents run on; one per app, shared by every top-level agent."""

    subagents: Callable[[], dict[str, SubAgentSpec]]
    tools: ToolRegistry
    workspace: Path
    gate: Gate
    # The model a top-level agent's sub-agents use (its own): (provider, model name).
    model_for: Callable[[str], tuple[Provider, str]]
    # The tools a top-level agent may use (None: all): its sub-agents get no others, so its
    # `never` and tool list bind them too.
    visible_for: Callable[[str], set[str] | None]
    # A top-level agent's `boundaries.ask`: tools its unattended runs (and their sub-agents)
    # never get.
    ask_for: Callable[[str], Collection[str]]
    memory: MemoryService | None
    clock: Clock
    language: Language = "ko"
    limits: OrchestrationLimits = field(default_factory=OrchestrationLimits)
    stm: ShortTermMemory = field(default_factory=ShortTermMemory)
    _unattended_gate: Gate | None = field(default=None, init=False)

    def gate_for(self, ctx: ToolCallContext) -> Gate:
        """Unattended runs gate their sub-agents with a sandbox that never asks anyone."""
        if not ctx.unattended:
            return self.gate
        if self._unattended_gate is None:
            sandbox = dataclasses.replace(self.gate.sandbox, unattended=True)
            self._unattended_gate = Gate(sandbox, self.gate.audit, self.gate.language)
        return self._unattended_gate

    def tools_for(self, spec: SubAgentSpec, ctx: ToolCallContext) -> LoopTools:
        sandbox = self.gate.sandbox
        available = set(self.tools.names())
        allowed = self.visible_for(ctx.agent_id)
        names = subagent_tools(
            spec.tools,
            available if allowed is None else available & allowed,
            depth=len(ctx.path),  # the sub-agent's level: the caller's path is one shorter
            max_depth=self.limits.max_depth,
            unattended=ctx.unattended,
            requires_approval=lambda name: sandbox.any_requires_approval([name], ctx.user_id),
            never=self.ask_for(ctx.agent_id) if ctx.unattended else (),
        )
        return GatedTools(self.tools, self.workspace, self.gate_for(ctx), visible=set(names))

    async def run(
        self, spec: SubAgentSpec, task: str, ctx: ToolCallContext, budget: ModelBudget
    ) -> Delegation:
        path = (*ctx.path, spec.name)
        tools = self.tools_for(spec, ctx)
        key = self.stm.key(spec, ctx)
        provider, model = self.model_for(ctx.agent_id)
        result = await run_agent_loop(
            provider=BudgetedProvider(provider, budget),
            model=model,
            system_prompt=spec.system_prompt or f"You are {spec.name}. {spec.description}",
            history=[*self.stm.load(key), UserMessage(content=task)],
            tools=tools,
            emit=nested_sink(ctx.emit, path),
            # Same session (its windows get the approvals), same agent (its rules), same abort.
            tool_context=dataclasses.replace(ctx, agent_path=path),
            config=loop_config(self.limits.max_turns, ctx.speaks(self.language)),
            agent_name=spec.name,
        )
        delegation = Delegation(spec.name, task, result.final_text, result.ended_by, result.error)
        if delegation.ok:
            self.stm.add(key, task, result.final_text)
        await self._episode(delegation, result, ctx, path)
        return delegation

    async def note(self, ctx: ToolCallContext, text: str) -> None:
        """Into the parent session's shared work memory ([작업 공유 메모리]), which its next
        turns see too."""
        if self.memory is None:
            return
        scope = MemoryScope(ctx.agent_id, ctx.user_id, ctx.session_id, ctx.turn)
        try:
            await self.memory.note(scope, text[:_NOTE_CHARS])
        except Exception as exc:  # the result still reaches the parent through the tool
            _log.error("work memory note not stored: %s", exc)

    async def _episode(
        self,
        delegation: Delegation,
        result: LoopResult,
        ctx: ToolCallContext,
        path: tuple[str, ...],
    ) -> None:
        """The parent remembers each delegation as an episode (seed 003)."""
        if self.memory is None:
            return
        episode = make_episode(
            agent_id=ctx.agent_id,
            user_id=ctx.user_id,
            session_id=ctx.session_id,
            turn=ctx.turn,
            ts_ms=self.clock.now_ms(),
            utterance=f"[{delegation.agent}] {delegation.task}",
            answer=delegation.text,
            successful_calls=[(f"agent_{delegation.agent}", {"task": delegation.task})],
            outcome="success" if delegation.ok else "failure",
            overflow=result.overflows > 0,
        )
        episode.metadata.update({"delegation": True, "agent_path": list(path)})
        try:
            await self.memory.record_episode(episode)
        except Exception as exc:  # the delegation's answer stands; a lost episode costs recall
            _log.error("delegation episode not stored: %s", exc)
