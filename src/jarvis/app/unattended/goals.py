"""Goal steps: one unattended turn per step until done, blocked or out of budget."""

from __future__ import annotations

from typing import Any

from jarvis.app.infra import AppAssembly
from jarvis.app.unattended.notify import ProactiveHub
from jarvis.app.unattended.runs import TurnReport, UnattendedTurns
from jarvis.common.i18n import t
from jarvis.core.scheduler.budget import GoalUsage, out_of_budget
from jarvis.core.scheduler.definitions import Goal, GoalLogEntry, load_goal, save_goal

DONE, BLOCKED = "[DONE]", "[BLOCKED]"
_LOG_LINES = 8  # the latest log entries the next turn sees


class GoalSteps:
    def __init__(self, app: AppAssembly, turns: UnattendedTurns, hub: ProactiveHub) -> None:
        self.app = app
        self.turns = turns
        self.hub = hub

    async def step(self, goal_id: str, turn: int) -> dict[str, Any]:
        home = self.app.settings.home
        goal = load_goal(home, goal_id)
        if goal is None or goal.status != "active" or goal.turns + 1 != turn:
            return {"status": "skipped"}
        now = self.app.clock.now_ms()
        if not goal.started_ms:
            goal.started_ms = now
        usage = GoalUsage(goal.turns, goal.tokens, goal.started_ms)
        exhausted = out_of_budget(usage, goal.budget, now)
        if exhausted is not None:
            return await self._finish(goal, "out_of_budget", exhausted)
        missing = await self.turns.preapprovals.missing(goal)
        if missing:
            return await self._finish(goal, "blocked", f"pre-approval missing: {missing}")
        report = await self.turns.run(goal, self._prompt(goal), f"🎯 {goal.id}")
        return await self._record(goal, turn, report)

    def _prompt(self, goal: Goal) -> str:
        lines = [f"- ({e.turn}) {e.text[:300]}" for e in goal.log[-_LOG_LINES:]] or ["-"]
        steps = "\n".join(f"{i}. {s}" for i, s in enumerate(goal.steps, 1))
        objective = f"{goal.objective}\n{steps}" if steps else goal.objective
        lang = self.app.settings.language
        return t("unattended.goal_prompt", lang, goal=objective, log="\n".join(lines))

    async def _record(self, goal: Goal, turn: int, report: TurnReport) -> dict[str, Any]:
        # Re-read: the person may have paused or stopped the goal during the turn.
        latest = load_goal(self.app.settings.home, goal.id) or goal
        latest.started_ms = latest.started_ms or goal.started_ms
        latest.turns = turn
        latest.tokens += report.tokens
        text = report.answer or report.reason
        entry = GoalLogEntry(
            ts_ms=self.app.clock.now_ms(),
            turn=turn,
            text=text,
            session_id=report.session_id,
            tokens=report.tokens,
        )
        latest.log.append(entry)
        if report.status == "failed":
            return await self._finish(latest, "blocked", report.reason, report)
        if DONE in report.answer:
            return await self._finish(latest, "done", report.answer, report)
        if BLOCKED in report.answer:
            return await self._finish(latest, "blocked", report.answer, report)
        save_goal(self.app.settings.home, latest)
        await self._tell(latest, "progress", text, report.session_id)
        return {**report.as_dict(), "goal_status": latest.status}

    async def interrupted(self, goal_id: str, turn: int, reason: str) -> dict[str, Any]:
        goal = load_goal(self.app.settings.home, goal_id)
        if goal is None:
            return {"status": "failed", "reason": "interrupted"}
        goal.turns = max(goal.turns, turn)  # the step counts: it is never run again
        goal.log.append(GoalLogEntry(ts_ms=self.app.clock.now_ms(), turn=turn, text=reason))
        save_goal(self.app.settings.home, goal)
        await self._tell(goal, "failed", reason, "")
        return {"status": "failed", "reason": "interrupted"}

    async def _finish(
        self, goal: Goal, status: str, detail: str, report: TurnReport | None = None
    ) -> dict[str, Any]:
        goal.status = status  # type: ignore[assignment]
        goal.detail = detail[:500]
        save_goal(self.app.settings.home, goal)
        await self._tell(goal, status, detail, report.session_id if report else "")
        return {"status": "ok" if status == "done" else status, "goal_status": status}

    async def _tell(self, goal: Goal, status: str, detail: str, session_id: str) -> None:
        lang = self.app.language_of(goal.owner)
        text = t("unattended.goal_status", lang, goal=goal.id, status=status, detail=detail)
        await self.hub.publish(
            goal.owner,
            text,
            "answer",
            f"goal:{goal.id}:{goal.turns}",
            status=status,
            session_id=session_id,
            goal_id=goal.id,
        )
