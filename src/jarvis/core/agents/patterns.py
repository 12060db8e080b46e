"""Orchestration judgements as pure functions: which pattern runs, who takes a task, what the
supervisor decided, what each agent is shown and how results are put together (seed 003
"멀티 에이전트"). The runtime (`orchestrator.py`) only calls models and tools around these."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from jarvis.core.agents.specs import SubAgentSpec

Pattern = Literal["supervisor", "hierarchical", "market", "blackboard"]
PATTERNS: tuple[Pattern, ...] = ("supervisor", "hierarchical", "market", "blackboard")
WORK_MEMORY_TITLE = "[작업 공유 메모리]"
_WORD = re.compile(r"[0-9A-Za-z가-힣_]+")
_PLAIN_DELEGATE = re.compile(r"^\s*delegate\s+([a-z0-9_-]+)\s*[:\-]\s*(.+)$", re.I | re.S)
_PLAIN_DONE = re.compile(r"^\s*done\s*[:\-]\s*(.*)$", re.I | re.S)


def parse_pipeline(text: str) -> list[Pattern]:
    """`supervisor`, `market,blackboard` … → the patterns in order; ValueError names the bad one."""
    names = [part.strip().lower() for part in text.split(",")]
    if not any(names):
        raise ValueError("no pattern given")
    patterns: list[Pattern] = []
    for name in names:
        found = next((p for p in PATTERNS if p == name), None)
        if found is None:
            raise ValueError(f"unknown pattern {name!r}; use {', '.join(PATTERNS)}")
        patterns.append(found)
    return patterns


def _words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(text)}


def capability_score(agent: SubAgentSpec, task: str) -> int:
    """Capabilities named in the task count 3 each; description words shared with it, 1 each."""
    lowered = task.lower()
    named = sum(3 for cap in agent.capabilities if cap and cap.lower() in lowered)
    return named + len(_words(agent.description) & _words(task))


def market_pick(agents: Sequence[SubAgentSpec], task: str) -> SubAgentSpec | None:
    """The one agent whose capabilities best match; the first declared wins a tie."""
    best: SubAgentSpec | None = None
    best_score = -1
    for agent in agents:
        score = capability_score(agent, task)
        if score > best_score:
            best, best_score = agent, score
    return best


def levels(agents: Sequence[SubAgentSpec]) -> list[list[SubAgentSpec]]:
    """Agents grouped by `level`, lowest first; declaration order inside a level."""
    grouped: dict[int, list[SubAgentSpec]] = {}
    for agent in agents:
        grouped.setdefault(agent.level, []).append(agent)
    return [grouped[level] for level in sorted(grouped)]


def work_memory(entries: Sequence[tuple[str, str]]) -> str:
    """The shared work memory section every blackboard agent sees ('' when empty)."""
    if not entries:
        return ""
    return "\n".join([WORK_MEMORY_TITLE, *(f"- {name}: {text}" for name, text in entries)])


def with_context(task: str, context: str) -> str:
    """What a sub-agent is asked: the task, with earlier results or shared memory in front."""
    return f"{context}\n\n{task}" if context else task


def aggregate(results: Sequence[tuple[str, str]]) -> str:
    """One answer from several agents' results, each under its agent's name."""
    if len(results) == 1:
        return results[0][1]
    return "\n\n".join(f"[{name}]\n{text}" for name, text in results)


@dataclass(frozen=True)
class SupervisorStep:
    kind: Literal["delegate", "done", "invalid"]
    agent: str = ""
    task: str = ""
    answer: str = ""


def supervisor_prompt(
    task: str, agents: Sequence[SubAgentSpec], results: Sequence[tuple[str, str]]
) -> str:
    roster = "\n".join(
        f"- {a.name}: {a.description} (capabilities: {', '.join(a.capabilities) or '-'})"
        for a in agents
    )
    done = "\n".join(f"- {name}: {text}" for name, text in results) or "- (none yet)"
    return (
        f"Task: {task}\n\nAgents:\n{roster}\n\nResults so far:\n{done}\n\n"
        'Reply with one JSON object: {"delegate": "<agent>", "task": "<what it should do>"} '
        'to hand over the next step, or {"done": "<final answer>"} when the task is complete.'
    )


def parse_supervisor(reply: str, names: Sequence[str]) -> SupervisorStep:
    """The supervisor's decision: JSON first, then `DELEGATE name: task` / `DONE: answer`; plain
    text is a final answer. Naming an agent that does not exist is `invalid`."""
    text = reply.strip()
    data = _json_object(text)
    if data is not None:
        if isinstance(data.get("delegate"), str):
            return _delegate(str(data["delegate"]), str(data.get("task") or ""), names)
        if "done" in data:
            return SupervisorStep("done", answer=str(data["done"]))
    plain = _PLAIN_DELEGATE.match(text)
    if plain:
        return _delegate(plain.group(1), plain.group(2).strip(), names)
    finished = _PLAIN_DONE.match(text)
    return SupervisorStep("done", answer=(finished.group(1) if finished else text).strip())


def _delegate(agent: str, task: str, names: Sequence[str]) -> SupervisorStep:
    if agent not in names or not task.strip():
        return SupervisorStep("invalid", agent=agent, task=task)
    return SupervisorStep("delegate", agent=agent, task=task.strip())


def _json_object(text: str) -> dict[str, object] | None:
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(text[start : end + 1])
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None
