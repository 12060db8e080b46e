"""The agent layer's own settings."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LoopSettings(BaseModel):
    max_turns: int = Field(20, ge=1, le=200, description="LLM rounds per user turn.")
    overflow_resume: bool = Field(True, description="Summarise and continue once on overflow.")
    turn_deadline_sec: float = Field(
        900.0, gt=0, description="A whole turn's time limit; then it stops and says so."
    )
