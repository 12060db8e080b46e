"""`Unattended`: one per process; what the web routes, the CLI and the tools call."""

from __future__ import annotations

import asyncio
import importlib
import socket
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from jarvis import __version__
from jarvis.app.focus.outbox import FocusOutbox
from jarvis.app.infra import AppAssembly
from jarvis.app.proactive.speaker import ProactiveSpeaker
from jarvis.app.session_builder import SessionBuilder
from jarvis.app.unattended.engine import Engine
from jarvis.app.unattended.notify import ProactiveHub
from jarvis.app.unattended.runs import UnattendedTurns
from jarvis.app.unattended.runtime import UnattendedRuntime
from jarvis.common.clock import new_id
from jarvis.common.i18n import t
from jarvis.common.logging import get_logger
from jarvis.core.approvals.audit import AuditRecord
from jarvis.core.scheduler.ahead import load_aheads
from jarvis.core.scheduler.definitions import (
    Goal,
    GoalStatus,
    Schedule,
    load_goal,
    load_goals,
    load_schedules,
    save_goal,
    save_schedule,
)
from jarvis.core.scheduler.preapproval import Definition, NotOwner, PreapprovalStore
from jarvis.core.scheduler.timing import next_due

_log = get_logger("jarvis.unattended")
# Creating a schedule or a goal is a standing action: approved each time, never ALWAYS.
PROPOSAL_TOOLS = ("schedule", "goal", "focus", "watch_source")


def _show_in_terminal(text: str) -> None:
    print(text, flush=True)  # the terminal that runs Jarvis sees its reminders


class PreapprovalRequired(PermissionError):
    def __init__(self, line: str, missing: list[str]) -> None:
        super().__init__(line)
        self.missing = missing


def engine_url(app: AppAssembly) -> tuple[str, str | None]:
    """The engine's database and schema: the deployment's PostgreSQL (its search_path schema
    when the DSN sets one), else SQLite in the data dir."""
    storage = app.settings.storage
    if storage.backend == "postgres" and storage.postgres_dsn:
        dsn = storage.postgres_dsn
        marker = "search_path%3D"
        schema = dsn.split(marker, 1)[1].split("&", 1)[0] if marker in dsn else None
        return dsn, schema
    return f"sqlite:///{app.settings.home / 'engine.sqlite'}", None


class Unattended:
    def __init__(self, app: AppAssembly, builders: dict[str, SessionBuilder]) -> None:
        self.app = app
        settings = app.settings
        dsn = settings.storage.postgres_dsn if app.shared else None
        self.hub = ProactiveHub(dsn, terminal=_show_in_terminal)
        self.outbox = FocusOutbox(settings.home, self.hub.send)
        self.turns = UnattendedTurns(app, builders)
        self.speaker = ProactiveSpeaker(app, builders, self.hub)  # speaking first (off by default)
        url, schema = engine_url(app)
        executor = settings.scheduler.executor_id or f"{socket.gethostname()}-{settings.web.port}"
        self.engine = Engine(url, executor, __version__, schema)
        self.runtime: UnattendedRuntime | None = None
        self.tz = ZoneInfo(settings.timezone)

    @property
    def preapprovals(self) -> PreapprovalStore:
        return self.turns.preapprovals

    async def start(self, *, tick: bool = True, serving: bool = False) -> None:
        """`serving`: this is a serve process, which sends on what `jarvis focus …` in a
        terminal tells the windows (the focus outbox); a chat or a CLI command never takes it."""
        for name in PROPOSAL_TOOLS:
            if name not in self.app.settings.security.no_standing_consent:
                self.app.settings.security.no_standing_consent.append(name)
        from jarvis.app.focus.tools import FocusTool
        from jarvis.app.sources.tools import WatchSourceTool
        from jarvis.app.unattended.tools import GoalTool, ScheduleTool

        settings, clock = self.app.settings, self.app.clock
        focus = FocusTool(settings.home, clock.now_ms, settings.language, self.hub.send)
        sources = WatchSourceTool(settings.home, settings.language)
        self.app.tools.register_all([ScheduleTool(self), GoalTool(self), focus, sources])
        if not self.app.settings.scheduler.enabled:
            return
        await self.hub.start()
        if serving:
            await self.outbox.start()
        # The engine's library is slow to import: off the event loop, so serving goes on.
        await asyncio.to_thread(importlib.import_module, "jarvis.app.unattended.workflows")
        runtime = UnattendedRuntime(self.app, self.turns, self.engine, self.hub, self.speaker)
        try:
            self.engine.launch(runtime)
        except RuntimeError as exc:  # another assembly in this process has the engine
            _log.warning("unattended work off in this assembly: %s", exc)
            return
        self.runtime = runtime
        if tick:
            runtime.start_ticking()

    async def aclose(self) -> None:
        if self.runtime is not None:
            await self.runtime.stop_ticking()
        self.engine.destroy()
        await self.outbox.stop()
        await self.hub.aclose()

    # -- schedules ----------------------------------------------------------------------------
    def schedule(self, schedule_id: str) -> Schedule:
        schedules, _ = load_schedules(self.app.settings.home)
        for schedule in schedules:
            if schedule.id == schedule_id:
                return schedule
        raise LookupError(f"no schedule {schedule_id!r}")

    async def describe(self, definition: Definition) -> list[dict[str, Any]]:
        return [asdict(row) for row in await self.turns.preapprovals.status(definition)]

    async def list_schedules(self, user: str | None = None, runs: int = 3) -> list[dict[str, Any]]:
        schedules, errors = load_schedules(self.app.settings.home)
        now = datetime.fromtimestamp(self.app.clock.now_ms() / 1000, UTC)
        rows: list[dict[str, Any]] = []
        for s in schedules:
            if user is not None and s.owner != user:
                continue
            upcoming: list[str] = []
            after = now
            for _ in range(runs):
                due = next_due(s.cron, after, self.tz)
                if due is None:
                    break
                upcoming.append(due.astimezone(self.tz).isoformat())
                after = due
            last = await self.engine.runs(f"sched:{s.id}:", 5) if self.engine.launched else []
            rows.append(
                {
                    **s.model_dump(),
                    "cron": s.cron,
                    "next_runs": upcoming if s.enabled else [],
                    "last_runs": [
                        {"id": r.workflow_id, "state": r.status, **r.result} for r in last
                    ],
                    "preapproval": await self.describe(s),
                }
            )
        return rows + [{"id": name, "error": why} for name, why in errors.items()]

    async def set_enabled(self, schedule_id: str, enabled: bool, requester: str) -> Schedule:
        schedule = self.schedule(schedule_id)
        if requester != schedule.owner:
            raise NotOwner(f"only the owner ({schedule.owner}) may change {schedule.key}")
        if enabled:
            await self.require_grants(schedule)
        schedule.enabled = enabled
        save_schedule(self.app.settings.home, schedule)
        return schedule

    async def require_grants(self, definition: Definition) -> None:
        missing = await self.turns.preapprovals.missing(definition)
        if missing:
            line = t(
                "unattended.preapproval_required",
                self.app.settings.language,
                definition=definition.key,
                owner=definition.owner,
                tools=", ".join(missing),
            )
            raise PreapprovalRequired(line, missing)

    async def run_now(self, schedule_id: str, requester: str) -> str:
        schedule = self.schedule(schedule_id)
        if requester != schedule.owner:
            raise NotOwner(f"only the owner ({schedule.owner}) may run {schedule.key}")
        await self.require_grants(schedule)
        run_id = f"sched:{schedule.id}:manual-{new_id()[:12]}"
        await self.engine.start(run_id, "schedule", schedule.id, run_id.rsplit(":", 1)[1])
        return run_id

    async def create_schedule(self, schedule: Schedule) -> Schedule:
        """A proposal the person approved: enabled unless tools still need pre-approval."""
        if schedule.tools and await self.turns.preapprovals.missing(schedule):
            schedule.enabled = False
        save_schedule(self.app.settings.home, schedule)
        await self._audit(schedule.owner, schedule.key, "schedule_created")
        return schedule

    # -- goals --------------------------------------------------------------------------------
    def goal(self, goal_id: str) -> Goal:
        goal = load_goal(self.app.settings.home, goal_id)
        if goal is None:
            raise LookupError(f"no goal {goal_id!r}")
        return goal

    def list_goals(self, user: str | None = None) -> list[Goal]:
        return [g for g in load_goals(self.app.settings.home) if user in (None, g.owner)]

    async def create_goal(self, goal: Goal) -> Goal:
        goal.created_ms = goal.created_ms or self.app.clock.now_ms()
        if goal.tools and await self.turns.preapprovals.missing(goal):
            goal.status = "paused"  # started once the owner pre-approves and resumes it
        save_goal(self.app.settings.home, goal)
        await self._audit(goal.owner, goal.key, "goal_created")
        return goal

    async def set_goal_status(self, goal_id: str, status: GoalStatus, requester: str) -> Goal:
        goal = self.goal(goal_id)
        if requester != goal.owner:
            raise NotOwner(f"only the owner ({goal.owner}) may change {goal.key}")
        if status == "active":
            await self.require_grants(goal)
        goal.status = status
        save_goal(self.app.settings.home, goal)
        return goal

    # -- pre-approval -------------------------------------------------------------------------
    def definition(self, key: str) -> Definition:
        kind, _, ident = key.partition(":")
        if kind == "schedule":
            return self.schedule(ident)
        if kind == "goal":
            return self.goal(ident)
        if kind == "ahead":
            found, _ = load_aheads(self.app.settings.home)
            for ahead in found:
                if ahead.id == ident:
                    return ahead
        raise LookupError(f"no definition {key!r}")

    async def _audit(self, user: str, key: str, outcome: str) -> None:
        await self.app.audit.append(
            AuditRecord(
                ts_ms=self.app.clock.now_ms(),
                user=user,
                agent="main",
                session="",
                turn=0,
                tool=key.partition(":")[0],
                source="unattended",
                outcome=outcome,
                reason=key,
                rule=key,
            )
        )
