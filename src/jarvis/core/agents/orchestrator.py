"""Running an orchestration pattern (or a comma pipeline of them) over the declared sub-agents.

supervisor: a supervisor model call picks the next agent and subtask, step by step, until it
says done; hierarchical: level by level, each level's results handed to the next; market: the
one agent whose capabilities best match; blackboard: everyone at once (up to the concurrency
limit), each seeing the shared work memory, results aggregated. A pipeline feeds each
pattern's result to the next. The judgements are `patterns.py`; this file only runs them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from jarvis.agent_layer.loop import run_agent_loop
from jarvis.agent_layer.tools import NoTools, ToolCallContext
from jarvis.core.agents.patterns import (
    Pattern,
    aggregate,
    levels,
    market_pick,
    parse_supervisor,
    supervisor_prompt,
    with_context,
    work_memory,
)
from jarvis.core.agents.runtime import (
    BudgetedProvider,
    Delegation,
    ModelBudget,
    SubAgentHost,
    loop_config,
    nested_sink,
)
from jarvis.core.agents.specs import SubAgentSpec
from jarvis.model_layer.messages import UserMessage

_SUPERVISOR_SYSTEM = (
    "You are the supervisor of a team of agents. You never do the work yourself: you hand "
    "each step to the agent best suited and decide when the task is complete."
)


@dataclass
class OrchestrationResult:
    text: str
    delegations: list[Delegation] = field(default_factory=list)
    # answer, budget (the model-call budget ran out), aborted, no_agents, failed
    ended_by: str = "answer"


class Orchestration:
    def __init__(self, host: SubAgentHost, ctx: ToolCallContext) -> None:
        self.host = host
        self.ctx = ctx
        self.budget = ModelBudget(host.limits.max_model_calls)
        self.delegations: list[Delegation] = []

    @property
    def agents(self) -> list[SubAgentSpec]:
        return list(self.host.subagents().values())

    def _stopped(self) -> str | None:
        if self.ctx.abort.is_set():
            return "aborted"
        if self.budget.exhausted:
            return "budget"
        return None

    async def run(self, patterns: Sequence[Pattern], task: str) -> OrchestrationResult:
        if not self.agents:
            return OrchestrationResult("no sub-agents are defined", ended_by="no_agents")
        text = ""
        for index, pattern in enumerate(patterns):
            step_task = task if index == 0 else with_context(task, f"[이전 단계 결과]\n{text}")
            text = await self._pattern(pattern, step_task)
            stopped = self._stopped()
            if stopped is not None:
                return OrchestrationResult(text, self.delegations, stopped)
        failed = bool(self.delegations) and not any(d.ok for d in self.delegations)
        return OrchestrationResult(text, self.delegations, "failed" if failed else "answer")

    async def _pattern(self, pattern: Pattern, task: str) -> str:
        if pattern == "supervisor":
            return await self.supervisor(task)
        if pattern == "hierarchical":
            return await self.hierarchical(task)
        if pattern == "market":
            return await self.market(task)
        return await self.blackboard(task)

    async def delegate(self, agent: SubAgentSpec, task: str) -> Delegation:
        delegation = await self.host.run(agent, task, self.ctx, self.budget)
        self.delegations.append(delegation)
        return delegation

    async def market(self, task: str) -> str:
        chosen = market_pick(self.agents, task)
        if chosen is None:
            return ""
        return (await self.delegate(chosen, task)).text

    async def hierarchical(self, task: str) -> str:
        """The answer is the last level's (aggregated when it has several agents)."""
        results: list[tuple[str, str]] = []
        level: list[tuple[str, str]] = []
        for group in levels(self.agents):
            context = aggregate(results) if results else ""
            asked = with_context(task, f"[앞 단계 결과]\n{context}" if context else "")
            level = []
            for agent in group:
                if self._stopped():
                    return aggregate(results + level)
                done = await self.delegate(agent, asked)
                level.append((agent.name, done.text))
            results += level
        return aggregate(level) if level else ""

    async def blackboard(self, task: str) -> str:
        board: list[tuple[str, str]] = []
        gate = asyncio.Semaphore(self.host.limits.blackboard_concurrency)

        async def one(agent: SubAgentSpec) -> None:
            async with gate:
                if self._stopped():
                    return
                # Each agent sees what the others have written by the time it starts.
                done = await self.delegate(agent, with_context(task, work_memory(board)))
                if done.text:
                    board.append((agent.name, done.text))
                    await self.host.note(self.ctx, f"{agent.name}: {done.text}")

        await asyncio.gather(*(one(agent) for agent in self.agents))
        return aggregate(board)

    async def supervisor(self, task: str) -> str:
        results: list[tuple[str, str]] = []
        by_name = {agent.name: agent for agent in self.agents}
        provider, model = self.host.model_for(self.ctx.agent_id)
        path = (*self.ctx.path, "supervisor")
        for _ in range(self.host.limits.supervisor_steps):
            if self._stopped():
                break
            decided = await run_agent_loop(
                provider=BudgetedProvider(provider, self.budget),
                model=model,
                system_prompt=_SUPERVISOR_SYSTEM,
                history=[UserMessage(content=supervisor_prompt(task, self.agents, results))],
                tools=NoTools(),
                emit=nested_sink(self.ctx.emit, path),
                tool_context=self.ctx,
                config=loop_config(1, self.ctx.speaks(self.host.language)),
                agent_name="supervisor",
            )
            if decided.error is not None:
                break
            step = parse_supervisor(decided.final_text, list(by_name))
            if step.kind != "delegate":
                return step.answer if step.kind == "done" and step.answer else aggregate(results)
            done = await self.delegate(by_name[step.agent], step.task)
            results.append((step.agent, done.text))
        return aggregate(results) if results else ""
