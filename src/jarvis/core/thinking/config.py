"""The thinking layer's settings (`thinking:` in config.yaml, `JARVIS_THINKING__*`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from jarvis.model_layer.config import ModelSettings


class ProactiveSettings(BaseModel):
    """Speaking first (`thinking.proactive`), off by default; `proactive:` per team agent."""

    enabled: bool = Field(False, description="Speak first on triggers (idle, a due AGENDA item).")
    idle_sec: float = Field(
        600.0, gt=0, description="A session with turns, quiet this long, is a trigger (once)."
    )
    due_within_min: float = Field(
        180.0, gt=0, description="An open AGENDA item due within this many minutes is a trigger."
    )
    daily_tokens: int = Field(
        20_000, gt=0, description="Per agent: reflection calls stop for the day at this many."
    )
    max_tokens: int = Field(400, gt=0, description="Longest reflection reply in tokens.")
    timeout_sec: float = Field(30.0, gt=0, description="A reflection's time limit, then dropped.")
    quiet_start: int = Field(22, ge=0, le=23, description="Quiet hours start (person's time).")
    quiet_end: int = Field(8, ge=0, le=23, description="Quiet hours end (person's time).")


class ThinkingSettings(BaseModel):
    router: bool = Field(
        True, description="Route every prompt (no tokens): `thought_route`, the effort setting."
    )
    engine: Literal["off", "auto", "always"] | None = Field(
        None,
        description="The inner-thought call: off, auto (when the router says think) or always; "
        "None: off, auto with --demo. A team file's `thought_engine` overrides it per agent.",
    )
    timeout_sec: float = Field(20.0, gt=0, description="A thought's time limit, then dropped.")
    max_tokens: int = Field(400, gt=0, description="Longest thought frame in tokens.")
    fillers: bool = Field(
        True, description="One short status line while a thought or a slow first round runs."
    )
    filler_after_sec: float = Field(
        3.0, gt=0, description="A filler only when the predicted wait is at least this long."
    )
    model: ModelSettings | None = Field(None, description="The thought's model; None: the agent's.")
    proactive: ProactiveSettings = Field(default_factory=ProactiveSettings)
