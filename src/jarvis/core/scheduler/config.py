"""Settings of unattended work (`JARVIS_SCHEDULER__*`)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class SchedulerSettings(BaseModel):
    enabled: bool = Field(True, description="Run schedules, goals and AGENDA reminders.")
    tick_sec: float = Field(1.0, gt=0, description="How often due work is looked for.")
    remind_before_sec: list[int] = Field(
        default_factory=lambda: [3600, 0],
        description="AGENDA reminders: seconds before the due time (0: at the due time).",
    )
    reminders: bool = Field(True, description="Remind of open loops with a due time.")
    missed_grace_sec: int = Field(
        120, ge=0, description="A due run older than this when first seen counts as missed."
    )
    executor_id: str | None = Field(
        None,
        description="This process's id in the engine (default: host name and port); keep it "
        "when restarting so unfinished runs are recovered.",
    )
