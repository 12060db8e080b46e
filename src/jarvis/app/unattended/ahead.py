"""Do it ahead: runs of `~/.jarvis/ahead/<id>.yaml` (see `core/scheduler/ahead.py`).

Each tick finds the definitions whose target (an open loop's due time, a schedule's next run) is
inside the lead time and starts one engine run per due time (`ahead:<id>:<due>`). A run is an
unattended turn like a schedule's: the owner's pre-approved tools only, nobody asked, the
agent's `ask` tools removed and `never` tools invisible; its answer goes to the owner's windows.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from jarvis.app.infra import AppAssembly
from jarvis.app.unattended.notify import ProactiveHub
from jarvis.app.unattended.runs import TurnReport, UnattendedTurns
from jarvis.common.i18n import t
from jarvis.core.scheduler.ahead import Ahead, in_window, load_aheads, run_id
from jarvis.core.scheduler.definitions import load_schedules
from jarvis.core.scheduler.timing import next_due

KIND = "ahead"


class AheadRuns:
    def __init__(self, app: AppAssembly, turns: UnattendedTurns, hub: ProactiveHub) -> None:
        self.app = app
        self.turns = turns
        self.hub = hub
        self.tz = ZoneInfo(app.settings.timezone)
        self.errors: dict[str, str] = {}

    def find(self, ahead_id: str) -> Ahead | None:
        found, _ = load_aheads(self.app.settings.home)
        return next((a for a in found if a.id == ahead_id), None)

    async def due_runs(self, now: datetime) -> list[tuple[str, str, str]]:
        """(run id, definition id, due time) of the work that starts now."""
        found, self.errors = load_aheads(self.app.settings.home)
        runs: list[tuple[str, str, str]] = []
        for ahead in found:
            if not ahead.enabled:
                continue
            target = await self._target(ahead, now)
            if target is not None and in_window(target[0], ahead.lead, now):
                runs.append((run_id(ahead, target[0]), ahead.id, target[0].isoformat()))
        return runs

    async def _target(self, ahead: Ahead, now: datetime) -> tuple[datetime, str] | None:
        """The target's next due time and what it is, or None (gone, closed, someone else's)."""
        if ahead.target_kind == "schedule":
            schedules, _ = load_schedules(self.app.settings.home)
            schedule = next((s for s in schedules if s.id == ahead.target_ref), None)
            if schedule is None or not schedule.enabled or schedule.owner != ahead.owner:
                return None
            due = next_due(schedule.cron, now, self.tz)
            return (due.astimezone(UTC), schedule.prompt) if due is not None else None
        store = self.app.openloops.store
        loop = await store.get(ahead.target_ref)
        if loop is None:  # the 8-character id `jarvis openloop list` shows
            matches = await store.find_prefix(ahead.agent, ahead.owner, ahead.target_ref)
            loop = matches[0] if len(matches) == 1 else None
        if loop is None or loop.status != "open" or loop.due_ms is None:
            return None
        if loop.user_id != ahead.owner:
            return None  # only the owner's own promises
        return datetime.fromtimestamp(loop.due_ms / 1000, UTC), loop.description

    async def execute(self, ahead_id: str, due: str) -> dict[str, Any]:
        ahead = self.find(ahead_id)
        if ahead is None or not ahead.enabled:
            return {"status": "skipped", "reason": "no such definition"}
        when = datetime.fromisoformat(due)
        target = await self._target(ahead, when - ahead.lead)
        if target is None or target[0] != when:
            return {"status": "skipped", "reason": "target gone or moved"}
        message_id = f"{KIND}:{ahead_id}:{due}"
        lang = self.app.language_of(ahead.owner)  # the owner's page, else the setting
        missing = await self.turns.preapprovals.missing(ahead)
        if missing:
            reason = self.turns.preapproval_reason(ahead, missing, lang)
            report = TurnReport("blocked", "", "", reason)
        else:
            local = when.astimezone(self.tz).strftime("%Y-%m-%d %H:%M")
            prompt = t(
                "unattended.ahead_prompt", lang, due=local, what=target[1], work=ahead.prompt
            )
            report = await self.turns.run(ahead, prompt, f"⏩ {ahead_id}")
        await self._publish(ahead, message_id, report)
        return report.as_dict()

    async def interrupted(self, ahead_id: str, due: str) -> dict[str, Any]:
        ahead = self.find(ahead_id)
        if ahead is not None:
            reason = t("unattended.run_interrupted", self.app.language_of(ahead.owner))
            report = TurnReport("failed", "", "", reason)
            await self._publish(ahead, f"{KIND}:{ahead_id}:{due}", report)
        return {"status": "failed", "reason": "interrupted"}

    async def _publish(self, ahead: Ahead, message_id: str, report: TurnReport) -> None:
        await self.hub.publish(
            ahead.owner,
            self.turns.line(ahead.id, report, self.app.language_of(ahead.owner)),
            "answer",
            message_id,
            status=report.status,
            session_id=report.session_id,
        )
