"""The `schedule` and `goal` tools: the model proposes, the person approves the call (the
gate asks: `requires_approval`), and only then is the schedule or goal created."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from jarvis.agent_layer.tools import ToolResult
from jarvis.app.infra import AppAssembly
from jarvis.common.clock import new_id
from jarvis.common.i18n import t
from jarvis.core.scheduler.definitions import DEFINITION_ID, Goal, GoalStatus, Schedule
from jarvis.core.scheduler.preapproval import NotOwner
from jarvis.core.scheduler.timing import next_due
from jarvis.core.tools.base import Tool, ToolArgumentError, ToolEnv


class Unattended(Protocol):
    """What the proposal tools use of the unattended service (app/unattended/service.py, which
    registers them): a protocol here, so the tools do not import the service back."""

    app: AppAssembly
    tz: ZoneInfo

    async def create_schedule(self, schedule: Schedule) -> Schedule: ...

    def goal(self, goal_id: str) -> Goal: ...

    async def create_goal(self, goal: Goal) -> Goal: ...

    async def set_goal_status(self, goal_id: str, status: GoalStatus, requester: str) -> Goal: ...


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]
    return slug or f"s-{new_id()[:8]}"


class ScheduleTool(Tool):
    name: ClassVar[str] = "schedule"
    description: ClassVar[str] = (
        "Propose a recurring task that runs without the user watching (the user approves it "
        "first). `when`: a 5-field cron line or a phrase like 'every weekday 9:00'; `prompt`: "
        "what to do each time; `tools`: approval-requiring tools it needs (the owner "
        "pre-approves them before it is enabled)."
    )
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Short id, a-z 0-9 -"},
            "when": {"type": "string"},
            "prompt": {"type": "string"},
            "tools": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["when", "prompt"],
    }
    requires_approval = True  # a standing action: the person approves each proposal

    def __init__(self, service: Unattended) -> None:
        self.service = service

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        name = _slug(str(args.get("name") or args.get("prompt", "")))
        if not DEFINITION_ID.match(name):
            raise ToolArgumentError(f"invalid name {name!r}")
        try:
            proposal = Schedule(
                id=name,
                when=str(args.get("when", "")),
                prompt=str(args.get("prompt", "")),
                agent=env.call.agent_id,
                owner=env.call.user_id,
                tools=[str(x) for x in args.get("tools") or []],
            )
        except ValidationError as exc:
            raise ToolArgumentError(str(exc).splitlines()[-1]) from None
        created = await self.service.create_schedule(proposal)
        lang = env.call.speaks(self.service.app.settings.language)  # the person's
        if not created.enabled:
            line = t(
                "unattended.schedule_needs_grant",
                lang,
                name=created.id,
                tools=", ".join(created.tools),
            )
            return ToolResult(content=line, details={"schedule": created.id})
        upcoming = next_due(created.cron, _now(self.service), self.service.tz)
        shown = upcoming.astimezone(self.service.tz).isoformat() if upcoming else "-"
        line = t(
            "unattended.schedule_proposed", lang, name=created.id, when=created.when, next=shown
        )
        return ToolResult(content=line, details={"schedule": created.id})


class GoalTool(Tool):
    name: ClassVar[str] = "goal"
    description: ClassVar[str] = (
        "Start a multi-step goal that advances in unattended turns until done, blocked or out "
        "of budget (the user approves it first); or `pause` / `stop` / `resume` / `status` one "
        "by `id`."
    )
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": ["start", "pause", "stop", "resume", "status"]},
            "objective": {"type": "string"},
            "id": {"type": "string"},
            "steps": {"type": "array", "items": {"type": "string"}},
            "max_turns": {"type": "integer"},
            "tools": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["action"],
    }
    requires_approval = True

    def __init__(self, service: Unattended) -> None:
        self.service = service

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        action = str(args.get("action", "start"))
        user = env.call.user_id
        if action == "start":
            return await self._start(args, env)
        goal_id = str(args.get("id", ""))
        statuses = {"pause": "paused", "stop": "stopped", "resume": "active"}
        try:
            if action == "status":
                goal = self.service.goal(goal_id)
            elif action in statuses:
                goal = await self.service.set_goal_status(
                    goal_id,
                    statuses[action],  # type: ignore[arg-type]
                    user,
                )
            else:
                raise ToolArgumentError(f"unknown action {action!r}")
        except (LookupError, NotOwner, PermissionError) as exc:
            return ToolResult(content=str(exc), is_error=True)
        return ToolResult(content=f"{goal.id}: {goal.status} ({goal.turns} turns) {goal.detail}")

    async def _start(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        objective = str(args.get("objective", "")).strip()
        if not objective:
            raise ToolArgumentError("objective is required to start a goal")
        goal = Goal(
            id=f"{_slug(objective)[:30]}-{new_id()[:6]}",
            objective=objective,
            agent=env.call.agent_id,
            owner=env.call.user_id,
            steps=[str(s) for s in args.get("steps") or []],
            tools=[str(x) for x in args.get("tools") or []],
            max_turns=int(args.get("max_turns") or 10),
        )
        created = await self.service.create_goal(goal)
        lang = env.call.speaks(self.service.app.settings.language)  # the person's
        line = t("unattended.goal_created", lang, goal=created.objective, id=created.id)
        return ToolResult(content=line, details={"goal": created.id, "status": created.status})


def _now(service: Unattended) -> Any:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(service.app.clock.now_ms() / 1000, UTC)
