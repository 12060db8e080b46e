"""A Focus task's state and what may happen to it (pure).

A task is planned (the model proposes steps, `parse_plan` validates them), then runs one step
at a time. Each step marks itself `running` before it does anything; a step found `running`
after a crash is `interrupted` and the task waits for the person (`resume` runs it again as a
new attempt, `stop` cancels) — a step is never re-run silently.
"""

from __future__ import annotations

import json
import re
from typing import Literal

from pydantic import BaseModel, Field

from jarvis.core.scheduler.budget import GoalBudget, GoalUsage, out_of_budget
from jarvis.core.scheduler.grants import definition_fingerprint

TaskStatus = Literal[
    "planning", "running", "waiting", "paused", "interrupted", "done", "failed", "cancelled"
]
StepStatus = Literal["pending", "running", "done", "interrupted", "failed"]
Event = Literal[
    "planned",  # the plan was accepted: wait for the first step
    "plan_rejected",
    "step_started",
    "step_done",  # more steps remain
    "last_step_done",
    "step_failed",
    "crashed",  # a step was found running after a crash
    "pause",
    "resume",
    "stop",
]
TERMINAL: frozenset[str] = frozenset({"done", "failed", "cancelled"})
TASK_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
MAX_STEPS = 12
MAX_OBJECTIVE = 500
MAX_STEP_CHARS = 300

# (status, event) → the next status. Anything missing is not allowed (None).
_TRANSITIONS: dict[tuple[str, str], TaskStatus] = {
    ("planning", "planned"): "waiting",
    ("planning", "plan_rejected"): "failed",
    ("planning", "crashed"): "interrupted",
    ("waiting", "step_started"): "running",
    ("running", "step_done"): "waiting",
    ("running", "last_step_done"): "done",
    ("running", "step_failed"): "failed",
    ("running", "crashed"): "interrupted",
    ("paused", "resume"): "waiting",
    ("interrupted", "resume"): "waiting",
}
for _status in ("planning", "running", "waiting"):
    _TRANSITIONS[(_status, "pause")] = "paused"
for _status in ("planning", "running", "waiting", "paused", "interrupted"):
    _TRANSITIONS[(_status, "stop")] = "cancelled"


def next_status(status: TaskStatus, event: Event) -> TaskStatus | None:
    """Where `event` takes a task in `status`, or None when it may not happen there."""
    return _TRANSITIONS.get((status, event))


class FocusStep(BaseModel):
    title: str
    status: StepStatus = "pending"
    attempt: int = 1
    started_ms: int = 0
    finished_ms: int = 0
    tokens: int = 0
    session_id: str = ""


class FocusTask(BaseModel):
    id: str
    objective: str = Field(min_length=1)
    owner: str = "local"
    agent: str = "main"
    tools: list[str] = Field(default_factory=list)
    status: TaskStatus = "planning"
    plan_attempt: int = 1
    steps: list[FocusStep] = Field(default_factory=list)
    resumed_at: TaskStatus | None = None  # while paused: where `resume` returns to
    max_turns: int = 20
    max_tokens: int = 400_000
    max_seconds: int = 4 * 3600
    turns: int = 0
    tokens: int = 0
    created_ms: int = 0
    started_ms: int = 0
    updated_ms: int = 0
    detail: str = ""

    @property
    def key(self) -> str:
        return f"focus:{self.id}"

    def fingerprint(self) -> str:
        """What the owner pre-approves tools for: the objective, agent, tools and budget
        (the plan is the model's, made later; it is not part of the agreement)."""
        settings = {
            "agent": self.agent,
            "tools": sorted(self.tools),
            "budget": [self.max_turns, self.max_tokens, self.max_seconds],
        }
        return definition_fingerprint("focus", self.objective, settings)

    def exhausted(self, now_ms: int) -> str | None:
        usage = GoalUsage(self.turns, self.tokens, self.started_ms)
        return out_of_budget(
            usage, GoalBudget(self.max_turns, self.max_tokens, self.max_seconds), now_ms
        )


def first_open_step(task: FocusTask) -> int | None:
    """The 1-based number of the first step not done, or None when every step is done."""
    for number, step in enumerate(task.steps, 1):
        if step.status != "done":
            return number
    return None


def run_ref(task: FocusTask, step: int | None) -> str:
    """The engine's run id for the planning call (step None) or a step, per attempt:
    `focus:<id>:plan`, `focus:<id>:3`, a resumed attempt `focus:<id>:3.2`."""
    if step is None:
        name, attempt = "plan", task.plan_attempt
    else:
        name, attempt = str(step), task.steps[step - 1].attempt
    return f"{task.key}:{name}" + (f".{attempt}" if attempt > 1 else "")


def parse_plan(answer: str) -> list[str] | None:
    """The steps the planning call proposed: a JSON list of strings (fenced or bare), else a
    numbered or bulleted list. None when nothing usable (empty, too many, too long)."""
    steps: list[str] = []
    match = re.search(r"\[[\s\S]*\]", answer)
    if match:
        try:
            data = json.loads(match.group(0))
        except ValueError:
            data = None
        if isinstance(data, list) and all(isinstance(s, str) for s in data):
            steps = [s.strip() for s in data]
    if not steps:
        steps = [
            m.group(1).strip()
            for m in re.finditer(r"^\s*(?:\d+[.)]|[-*])\s+(.+)$", answer, re.MULTILINE)
        ]
    steps = [s for s in steps if s]
    if not steps or len(steps) > MAX_STEPS or any(len(s) > MAX_STEP_CHARS for s in steps):
        return None
    return steps
