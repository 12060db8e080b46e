"""Pure parts of failure reflection (seed 000 "실패 반성"): which failures to reflect on, the
reflector's output schema, the kind blocked after two rejections, and the prompt.

Marks live on the episodes themselves (`metadata.reflection` = accepted | rejected | no_change |
blocked, `metadata.reflection_group`, `metadata.reflected_ms`), so the state survives restarts
in every memory store and needs no file of its own.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from jarvis.memory import MemoryItem
from jarvis.memory.episodes import Episode

GROUP_SIZE = 3  # latest unreflected failures per kind
GROUPS_PER_TICK = 2
OVERFLOW_NOTE = "한 단계가 너무 컸다"


class ReflectorOutput(BaseModel):
    scope: Literal["execution_slip", "procedure", "agent_behavior"]
    action: Literal["no_change", "revise_procedure", "task_pattern"]
    name: str = ""
    when: str = ""
    content: str = ""
    keywords: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class FailureGroup:
    kind: str
    items: tuple[MemoryItem, ...]  # newest first

    @property
    def key(self) -> str:
        first = self.items[-1].episode
        assert first is not None
        return f"{self.kind}@{first.session_id}:{first.turn}+{len(self.items)}"

    @property
    def episodes(self) -> list[Episode]:
        return [item.episode for item in self.items if item.episode is not None]


def _reflected(episode: Episode) -> bool:
    return "reflection" in episode.metadata


def failure_groups(items: list[MemoryItem], agent: str) -> list[FailureGroup]:
    """Unreflected failures of `agent` per kind (latest 3 each), the kind failing last first."""
    by_kind: dict[str, list[MemoryItem]] = defaultdict(list)
    for item in reversed(items):  # newest first
        episode = item.episode
        if episode is None or episode.agent_id != agent or episode.outcome != "failure":
            continue
        if _reflected(episode) or len(by_kind[episode.kind]) >= GROUP_SIZE:
            continue
        by_kind[episode.kind].append(item)
    return [FailureGroup(kind, tuple(group)) for kind, group in by_kind.items()]


def kind_blocked(items: list[MemoryItem], kind: str) -> bool:
    """Two reflections of `kind` rejected in a row, and no success of it since."""
    rejected: set[str] = set()
    for item in reversed(items):  # newest first
        episode = item.episode
        if episode is None or episode.kind != kind:
            continue
        result = episode.metadata.get("reflection")
        if episode.outcome == "success" or result in ("accepted", "no_change"):
            return False
        if result == "rejected":
            rejected.add(str(episode.metadata.get("reflection_group")))
            if len(rejected) >= 2:
                return True
    return False


def reflection_prompt(
    group: FailureGroup, procedure_body: str | None, lang_note: str = "Korean"
) -> str:
    lines = [
        f"These turns of task kind '{group.kind}' failed. Decide what to change.",
        "Scopes and their only action:",
        "- execution_slip → no_change (a one-off slip; nothing is written)",
        "- procedure → revise_procedure (rewrite the kind's procedure: steps that work)",
        "- agent_behavior → task_pattern (a work habit to keep: when it applies + keywords)",
        "Never copy the request or its answer; write a reusable method (≤ 1500 chars).",
        f"Answer with one JSON object: scope, action, name, when, content, keywords "
        f"(write content in {lang_note}).",
        "",
    ]
    if procedure_body:
        lines += ["Current procedure:", procedure_body, ""]
    for number, episode in enumerate(group.episodes, start=1):
        calls = ", ".join(f"{c.name}({c.args})" for c in episode.tool_calls) or "-"
        lines += [f"[{number}] request: {episode.utterance}", f"answer: {episode.answer}"]
        lines.append(f"successful tool calls: {calls}")
        if episode.metadata.get("overflow"):
            lines.append(f"evidence: {OVERFLOW_NOTE} (the turn used up its tool budget)")
        if episode.metadata.get("corrected"):
            lines.append(f"the person said it was wrong: {episode.metadata['corrected']}")
    return "\n".join(lines)
