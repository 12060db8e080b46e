"""The schemas of `~/.jarvis/agents/*.yaml` (sub-agents) and `~/.jarvis/team/<id>.yaml` (top-level
agents). Unknown keys are errors: a typo must not silently drop a boundary."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,40}$"
StmScope = Literal["per_parent_session", "per_task", "per_agent"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SubAgentMemory(_Strict):
    # per_parent_session: remembers earlier delegations of the same parent session;
    # per_task: starts fresh every delegation; per_agent: one memory across all sessions.
    stm: StmScope = "per_parent_session"


class SubAgentSpec(_Strict):
    name: str = Field(pattern=NAME_PATTERN)
    description: str = ""
    capabilities: list[str] = Field(default_factory=list)
    level: int = Field(0, ge=0, le=9)
    tools: list[str] = Field(default_factory=list)
    system_prompt: str = ""
    memory: SubAgentMemory = Field(default_factory=SubAgentMemory)

    @property
    def tool_name(self) -> str:
        return f"agent_{self.name}"


class TeamBoundaries(_Strict):
    ask: list[str] = Field(default_factory=list)
    never: list[str] = Field(default_factory=list)


class TeamMemory(_Strict):
    # own: this agent's memory only; main: reads and writes JARVIS's long-term memory.
    scope: Literal["own", "main"] = "own"


class TeamAgentSpec(_Strict):
    """One top-level agent beside `main`; its id is the file name."""

    name: str = Field(min_length=1, max_length=40)
    # Keys of the model settings that differ from the app's (provider, model, base_url, …).
    model: dict[str, Any] | None = None
    system_prompt: str | None = None
    # None: every registered tool; else only these.
    tools: list[str] | None = None
    # Tools only this agent gets: hidden from every other agent, main included.
    own_tools: list[str] = Field(default_factory=list)
    boundaries: TeamBoundaries = Field(default_factory=TeamBoundaries)
    memory: TeamMemory = Field(default_factory=TeamMemory)
    # This agent's inner-thought engine (None: the app's `thinking.engine`).
    thought_engine: Literal["off", "auto", "always"] | None = None
    # This agent speaks first (None: the app's `thinking.proactive.enabled`).
    proactive: bool | None = None
