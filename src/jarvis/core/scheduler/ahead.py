"""Do it ahead (seed 000: "사람이 없는 차례(목표, 스케줄 작업, 먼저 해 두기)"): work the agent
prepares before something is due — a schedule's next run or an AGENDA promise with a due time —
with nobody watching, under the owner's pre-approval like every unattended turn.

One YAML file per definition in `~/.jarvis/ahead/<id>.yaml` (the file name is the id):

    for: loop:3f2a9c1e            # an open loop (AGENDA promise) with a due time, or
                                  # schedule:morning-brief (its next run)
    minutes_before: 120           # how long before the due time the work starts
    prompt: 보고서 초안을 workspace/drafts/report.md 로 만들어 둬
    agent: main
    owner: local                  # whose authority it runs with; only they may pre-approve
    tools: [write_file]           # approval-requiring tools it needs (pre-approved)
    enabled: true

Each due time is prepared for once: the run id is `ahead:<id>:<due time>`. Once the due time has
come the work is no longer "ahead" and does not start (it is not backfilled after downtime).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from jarvis.core.scheduler.definitions import load_yaml_definitions
from jarvis.core.scheduler.grants import definition_fingerprint

TargetKind = Literal["loop", "schedule"]
FOLDER = "ahead"


class Ahead(BaseModel):
    id: str = ""
    target: str = Field(alias="for")
    minutes_before: int = Field(60, ge=1, le=7 * 24 * 60)
    prompt: str = Field(min_length=1)
    agent: str = "main"
    owner: str = "local"
    tools: list[str] = Field(default_factory=list)
    enabled: bool = True

    model_config = {"populate_by_name": True}

    @field_validator("target")
    @classmethod
    def _valid_target(cls, value: str) -> str:
        kind, _, ref = value.partition(":")
        if kind not in ("loop", "schedule") or not ref.strip():
            raise ValueError("`for` is loop:<open loop id> or schedule:<schedule id>")
        return value

    @property
    def key(self) -> str:
        return f"ahead:{self.id}"

    @property
    def target_kind(self) -> TargetKind:
        return "loop" if self.target.startswith("loop:") else "schedule"

    @property
    def target_ref(self) -> str:
        return self.target.partition(":")[2].strip()

    @property
    def lead(self) -> timedelta:
        return timedelta(minutes=self.minutes_before)

    def fingerprint(self) -> str:
        """Prompt and settings: what it prepares for, how early, as whom, with which tools."""
        settings = {
            "for": self.target,
            "minutes_before": self.minutes_before,
            "agent": self.agent,
            "tools": sorted(self.tools),
        }
        return definition_fingerprint("ahead", self.prompt, settings)


def load_aheads(home: Path) -> tuple[list[Ahead], dict[str, str]]:
    """Every valid definition, and the broken files with why (name → reason)."""
    return load_yaml_definitions(home / FOLDER, Ahead)


def in_window(due: datetime, lead: timedelta, now: datetime) -> bool:
    """Whether work for something due at `due` starts at `now`: its lead time has begun and it
    is not due yet (late work is not "ahead"; it is never backfilled)."""
    return due - lead <= now < due


def run_id(ahead: Ahead, due: datetime) -> str:
    return f"ahead:{ahead.id}:{due.isoformat()}"
