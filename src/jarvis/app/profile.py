"""AgentProfile: everything that may differ per agent (id, name, model, system prompt)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from jarvis.core.thinking import EngineMode
from jarvis.model_layer.config import ModelSettings

AGENT_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


@dataclass(frozen=True)
class Boundaries:
    """Seed 000 "에이전트의 경계": what an agent may do when nobody watches.
    `ask` tools are removed from unattended turns (schedules, goals); `never` tools are
    invisible to the agent everywhere."""

    ask: tuple[str, ...] = ()
    never: tuple[str, ...] = ()


@dataclass(frozen=True)
class AgentProfile:
    agent_id: str = "main"
    name: str = "JARVIS"
    # None uses the app's model settings.
    model: ModelSettings | None = None
    # None uses the catalog's default system prompt.
    system_prompt: str | None = None
    # None: every registered tool; else only these (agent-only tools are listed here).
    tools: tuple[str, ...] | None = None
    boundaries: Boundaries = Boundaries()
    # Tools only this agent gets (agent-only tools): every other agent is denied them.
    own_tools: tuple[str, ...] = ()
    # Whose long-term memory this agent reads and writes (None: its own).
    memory_agent: str | None = None
    # Thought settings: the inner-thought engine (None: the app's `thinking.engine`).
    thought_engine: EngineMode | None = None
    # Proactive setting: speaking first (None: the app's `thinking.proactive.enabled`).
    proactive: bool | None = None

    def __post_init__(self) -> None:
        if not AGENT_ID.match(self.agent_id):
            raise ValueError(f"invalid agent id {self.agent_id!r}: use a-z, 0-9, '-' and '_'")
