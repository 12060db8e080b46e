"""The process's unattended runtime: finds due work every tick and starts it on the engine;
the engine calls back `execute` (or `interrupted` after a crash) exactly once per run."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from jarvis.app.infra import AppAssembly
from jarvis.app.proactive.speaker import ProactiveSpeaker
from jarvis.app.unattended.ahead import KIND as AHEAD
from jarvis.app.unattended.ahead import AheadRuns
from jarvis.app.unattended.engine import Engine
from jarvis.app.unattended.focus_runner import FocusRunner
from jarvis.app.unattended.goals import GoalSteps
from jarvis.app.unattended.notify import ProactiveHub
from jarvis.app.unattended.runs import TurnReport, UnattendedTurns
from jarvis.app.unattended.sources import NOTE, POLL, SourceRuns
from jarvis.common.i18n import t
from jarvis.common.logging import get_logger
from jarvis.core.focus.state import first_open_step, run_ref
from jarvis.core.scheduler.definitions import Schedule, load_goals, load_schedules
from jarvis.core.scheduler.missed import runs_to_start
from jarvis.core.scheduler.reminders import reminders_due
from jarvis.core.scheduler.timing import due_times

_log = get_logger("jarvis.unattended")


def schedule_run_id(schedule_id: str, due: datetime) -> str:
    return f"sched:{schedule_id}:{due.astimezone(UTC).isoformat()}"


def _due_of(run_id: str) -> datetime | None:
    try:
        return datetime.fromisoformat(run_id.split(":", 2)[2])
    except (IndexError, ValueError):
        return None  # a manual run


class UnattendedRuntime:
    def __init__(
        self,
        app: AppAssembly,
        turns: UnattendedTurns,
        engine: Engine,
        hub: ProactiveHub,
        speaker: ProactiveSpeaker | None = None,
    ) -> None:
        self.app = app
        self.turns = turns
        self.engine = engine
        self.hub = hub
        self.speaker = speaker
        self.settings = app.settings.scheduler
        self.tz = ZoneInfo(app.settings.timezone)
        self.goals = GoalSteps(app, turns, hub)
        self.ahead = AheadRuns(app, turns, hub)
        self.focus = FocusRunner(app, turns, hub, hub.terminal)
        self.sources = SourceRuns(app, engine, hub, turns.preapprovals, speaker)
        self.loop = asyncio.get_running_loop()
        self._anchors: dict[str, datetime] = {}
        self._started: set[str] = set()
        self._ticker: asyncio.Task[None] | None = None
        self.errors: dict[str, str] = {}

    # -- the ticker ---------------------------------------------------------------------------
    def start_ticking(self) -> None:
        self._ticker = asyncio.create_task(self._tick_forever())

    async def stop_ticking(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        if self.speaker is not None:
            await self.speaker.aclose()

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_sec)
            try:
                await self.tick(self.app.clock.now_ms())
            except Exception:  # one bad tick never stops the next
                _log.exception("unattended tick failed")

    async def tick(self, now_ms: int) -> list[str]:
        """Start what is due at `now_ms`; returns the run ids asked for (started or joined)."""
        now = datetime.fromtimestamp(now_ms / 1000, UTC)
        started = await self._due_schedules(now)
        if self.settings.reminders:
            started += await self._due_reminders(now_ms)
        started += await self._due_goals()
        for run_id, ref, due in await self.ahead.due_runs(now):
            if run_id not in self._started:
                await self._start(run_id, AHEAD, ref, due)
                started.append(run_id)
        started += await self._due_focus()
        for run_id, kind, ref, due in self.sources.due_runs(now_ms):
            if run_id not in self._started:
                await self._start(run_id, kind, ref, due)
                started.append(run_id)
        if self.speaker is not None:
            self.speaker.poke(now_ms)  # speaking first: its own task, never holding the tick up
        return started

    async def _due_focus(self) -> list[str]:
        """The planning call of a task in `planning`, the first open step of one `waiting`."""
        started: list[str] = []
        for task in self.focus.store.tasks():
            if task.status == "planning" and not task.steps:
                run_id = run_ref(task, None)
            elif task.status == "waiting" and (number := first_open_step(task)) is not None:
                run_id = run_ref(task, number)
            else:
                continue
            if run_id not in self._started:
                await self._start(run_id, "focus", task.id, run_id.rsplit(":", 1)[1])
                started.append(run_id)
        return started

    async def _due_schedules(self, now: datetime) -> list[str]:
        schedules, self.errors = load_schedules(self.app.settings.home)
        grace = timedelta(seconds=self.settings.missed_grace_sec)
        started: list[str] = []
        for schedule in schedules:
            if not schedule.enabled:
                self._anchors.pop(schedule.id, None)  # enabling later does not backfill
                continue
            anchor = self._anchors.get(schedule.id) or await self._first_anchor(schedule, now)
            due = due_times(schedule.cron, anchor, now, self.tz)
            self._anchors[schedule.id] = now
            for when in runs_to_start(due, now, schedule.missed, grace):
                run_id = schedule_run_id(schedule.id, when)
                await self._start(run_id, "schedule", schedule.id, when.isoformat())
                started.append(run_id)
        return started

    async def _first_anchor(self, schedule: Schedule, now: datetime) -> datetime:
        """Since the schedule's last due run (missed ones then follow its policy), else one
        tick back: a due time that passed while this tick was coming still runs."""
        for record in await self.engine.runs(f"sched:{schedule.id}:", limit=20):
            due = _due_of(record.workflow_id)
            if due is not None:
                return due
        lookback = min(self.settings.tick_sec, self.settings.missed_grace_sec)
        return now - timedelta(seconds=lookback)

    async def _due_reminders(self, now_ms: int) -> list[str]:
        offsets = tuple(self.settings.remind_before_sec)
        started: list[str] = []
        for loop in await self.app.openloops.store.open_with_due():
            for reminder in reminders_due(
                loop.id, loop.status, loop.due_ms, loop.created_ms, now_ms, offsets
            ):
                run_id = f"remind:{reminder.key}"
                if run_id not in self._started:
                    await self._start(run_id, "reminder", loop.id, str(reminder.offset_sec))
                    started.append(run_id)
        return started

    async def _due_goals(self) -> list[str]:
        started: list[str] = []
        for goal in load_goals(self.app.settings.home):
            if goal.status != "active":
                continue
            run_id = f"goal:{goal.id}:{goal.turns + 1}"
            if run_id not in self._started:
                await self._start(run_id, "goal", goal.id, str(goal.turns + 1))
                started.append(run_id)
        return started

    async def _start(self, run_id: str, kind: str, ref: str, due: str) -> None:
        self._started.add(run_id)
        try:
            await self.engine.start(run_id, kind, ref, due)
        except Exception:
            self._started.discard(run_id)  # try again on the next tick
            _log.exception("run %s not started", run_id)

    # -- what the engine calls ----------------------------------------------------------------
    async def execute(self, kind: str, ref: str, due: str) -> dict[str, Any]:
        if kind == "schedule":
            return await self._run_schedule(ref, due)
        if kind == "reminder":
            return await self._remind(ref, int(due))
        if kind == "goal":
            return await self.goals.step(ref, int(due))
        if kind == "focus":
            return await self.focus.execute(ref, due)
        if kind == AHEAD:
            return await self.ahead.execute(ref, due)
        if kind in (POLL, NOTE):
            return await self.sources.execute(kind, ref, due)
        return {"status": "skipped", "reason": f"unknown kind {kind}"}

    async def interrupted(self, kind: str, ref: str, due: str) -> dict[str, Any]:
        schedule = self._schedule(ref) if kind == "schedule" else None
        lang = self.app.language_of(schedule.owner) if schedule else self.app.settings.language
        reason = t("unattended.run_interrupted", lang)
        if kind == "goal":
            return await self.goals.interrupted(ref, int(due), reason)
        if kind == "focus":
            return await self.focus.interrupted(ref, due)
        if kind == AHEAD:
            return await self.ahead.interrupted(ref, due)
        if kind in (POLL, NOTE):
            return await self.sources.interrupted(kind, ref, due)
        if schedule is not None:
            text = t("unattended.run_failed", lang, name=ref, reason=reason)
            await self.hub.publish(
                schedule.owner, text, "answer", f"sched:{ref}:{due}", status="failed"
            )
        # A reminder that may have gone out is not sent again.
        return {"status": "failed", "reason": "interrupted"}

    def _schedule(self, schedule_id: str) -> Schedule | None:
        schedules, _ = load_schedules(self.app.settings.home)
        return next((s for s in schedules if s.id == schedule_id), None)

    async def _run_schedule(self, schedule_id: str, due: str) -> dict[str, Any]:
        schedule = self._schedule(schedule_id)
        if schedule is None:
            return {"status": "skipped", "reason": "no such schedule"}
        missing = await self.turns.preapprovals.missing(schedule)
        message_id = f"sched:{schedule_id}:{due}"
        lang = self.app.language_of(schedule.owner)  # the owner's page, else the setting
        if missing:
            reason = self.turns.preapproval_reason(schedule, missing, lang)
            blocked = TurnReport("blocked", "", "", reason)
            text = self.turns.line(schedule_id, blocked, lang)
            await self.hub.publish(schedule.owner, text, "answer", message_id, status="blocked")
            return {"status": "blocked", "reason": reason}
        report = await self.turns.run(schedule, schedule.prompt, f"⏰ {schedule_id}")
        text = self.turns.line(schedule_id, report, lang)
        await self.hub.publish(
            schedule.owner,
            text,
            "answer",
            message_id,
            status=report.status,
            session_id=report.session_id,
        )
        return report.as_dict()

    async def _remind(self, loop_id: str, offset_sec: int) -> dict[str, Any]:
        loop = await self.app.openloops.store.get(loop_id)
        if loop is None or loop.status != "open" or loop.due_ms is None:
            return {"status": "skipped", "reason": "closed"}  # closed meanwhile: never remind
        lang = self.app.language_of(loop.user_id)
        due = datetime.fromtimestamp(loop.due_ms / 1000, self.tz).strftime("%Y-%m-%d %H:%M")
        if offset_sec > 0:
            text = t(
                "unattended.reminder_before",
                lang,
                minutes=offset_sec // 60,
                text=loop.description,
                due=due,
            )
        else:
            text = t("unattended.reminder_at", lang, text=loop.description, due=due)
        message_id = f"remind:{loop_id}:{offset_sec}"
        await self.hub.publish(loop.user_id, text, "proactive", message_id, loop_id=loop.id)
        return {"status": "ok", "text": text}
