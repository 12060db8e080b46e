"""Procedure learning settings (`JARVIS_PROCEDURES__*`)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ProcedureSettings(BaseModel):
    learn: bool = Field(True, description="Distil procedures from 3 successes of a task kind.")
    reflect: bool = Field(True, description="Reflect on failed turns at idle (a model call).")
    idle_sec: float = Field(
        30.0, ge=0, description="Quiet seconds after a turn before learning runs (the idle tick)."
    )
