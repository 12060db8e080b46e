"""Schedules (`~/.jarvis/schedules/<id>.yaml`) and goals (`~/.jarvis/goals/<id>.json`).

A schedule file:

    when: every weekday 9:00      # or a cron line: "0 9 * * 1-5"
    agent: main
    prompt: 받은 메일을 요약해 줘
    enabled: true
    owner: local
    tools: [bash]                 # approval-requiring tools the owner pre-approves
    missed: run_once              # or skip

The id is the file name. Files are read again on every tick (hot reload: a new, edited or
deleted file counts from the next tick); a broken file is reported and skipped.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError, field_validator
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from jarvis.common.atomic import atomic_write_text
from jarvis.core.scheduler.budget import GoalBudget
from jarvis.core.scheduler.grants import definition_fingerprint
from jarvis.core.scheduler.missed import MissedPolicy
from jarvis.core.scheduler.timing import to_cron

M = TypeVar("M", bound=BaseModel)
DEFINITION_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


class Schedule(BaseModel):
    id: str = ""
    when: str
    prompt: str = Field(min_length=1)
    agent: str = "main"
    enabled: bool = True
    owner: str = "local"
    tools: list[str] = Field(default_factory=list)
    missed: MissedPolicy = "run_once"

    @field_validator("when")
    @classmethod
    def _valid_when(cls, value: str) -> str:
        to_cron(value)  # raises with the reason
        return value

    @property
    def key(self) -> str:
        return f"schedule:{self.id}"

    @property
    def cron(self) -> str:
        return to_cron(self.when)

    def fingerprint(self) -> str:
        """Prompt and settings; `enabled` is not part of what the owner agreed to run."""
        settings = {"when": self.cron, "agent": self.agent, "tools": sorted(self.tools)}
        return definition_fingerprint("schedule", self.prompt, settings)


def schedule_file(home: Path, schedule_id: str) -> Path:
    if not DEFINITION_ID.match(schedule_id):
        raise ValueError(f"invalid schedule id {schedule_id!r}: use a-z, 0-9, '-' and '_'")
    return home / "schedules" / f"{schedule_id}.yaml"


def load_schedules(home: Path) -> tuple[list[Schedule], dict[str, str]]:
    """Every valid schedule, and the broken files with why (name → reason)."""
    return load_yaml_definitions(home / "schedules", Schedule)


def load_yaml_definitions(folder: Path, model: type[M]) -> tuple[list[M], dict[str, str]]:
    """Every valid `<id>.yaml` in `folder` (the id is the file name), and the broken files with
    why (name → reason)."""
    found: list[M] = []
    errors: dict[str, str] = {}
    if not folder.is_dir():
        return found, errors
    for path in sorted(folder.glob("*.yaml")):
        try:
            data = YAML(typ="safe").load(path.read_text(encoding="utf-8")) or {}
            if not isinstance(data, dict):
                raise ValueError("not a mapping")
            if not DEFINITION_ID.match(path.stem):
                raise ValueError("file name is not a valid id")
            found.append(model.model_validate({**data, "id": path.stem}))
        except (OSError, YAMLError, ValidationError, ValueError) as exc:
            errors[path.name] = str(exc).splitlines()[0]
    return found, errors


def save_schedule(home: Path, schedule: Schedule) -> Path:
    path = schedule_file(home, schedule.id)
    data: dict[str, Any] = schedule.model_dump(exclude={"id"})
    out = yaml_text(data)
    atomic_write_text(path, out)
    return path


def yaml_text(data: dict[str, Any]) -> str:
    import io

    buffer = io.StringIO()
    yaml = YAML()
    yaml.default_flow_style = False
    yaml.dump(data, buffer)
    return buffer.getvalue()


GoalStatus = Literal["active", "paused", "stopped", "done", "blocked", "out_of_budget"]


class GoalLogEntry(BaseModel):
    ts_ms: int
    turn: int
    text: str
    session_id: str = ""
    tokens: int = 0


class Goal(BaseModel):
    id: str
    objective: str = Field(min_length=1)
    agent: str = "main"
    owner: str = "local"
    status: GoalStatus = "active"
    tools: list[str] = Field(default_factory=list)
    steps: list[str] = Field(default_factory=list)
    max_turns: int = 10
    max_tokens: int = 200_000
    max_seconds: int = 3600
    created_ms: int = 0
    started_ms: int = 0
    turns: int = 0
    tokens: int = 0
    detail: str = ""
    log: list[GoalLogEntry] = Field(default_factory=list)

    @property
    def key(self) -> str:
        return f"goal:{self.id}"

    @property
    def budget(self) -> GoalBudget:
        return GoalBudget(self.max_turns, self.max_tokens, self.max_seconds)

    def fingerprint(self) -> str:
        settings = {
            "agent": self.agent,
            "tools": sorted(self.tools),
            "budget": [self.max_turns, self.max_tokens, self.max_seconds],
        }
        return definition_fingerprint("goal", self.objective, settings, self.steps)


def goal_file(home: Path, goal_id: str) -> Path:
    if not DEFINITION_ID.match(goal_id):
        raise ValueError(f"invalid goal id {goal_id!r}")
    return home / "goals" / f"{goal_id}.json"


def load_goal(home: Path, goal_id: str) -> Goal | None:
    try:
        text = goal_file(home, goal_id).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None
    try:
        return Goal.model_validate(json.loads(text))
    except (ValueError, ValidationError):
        return None


def load_goals(home: Path) -> list[Goal]:
    folder = home / "goals"
    if not folder.is_dir():
        return []
    goals = [load_goal(home, p.stem) for p in sorted(folder.glob("*.json"))]
    return [g for g in goals if g is not None]


def save_goal(home: Path, goal: Goal) -> None:
    atomic_write_text(goal_file(home, goal.id), goal.model_dump_json(indent=2))
