"""`FocusRunner`: what the engine runs for a Focus task (`kind` "focus").

Runs are `focus:<id>:plan` (the planning call) and `focus:<id>:<n>` (step n), `.k` appended
for the k-th attempt after a resume. A step marks itself `running` in `state.json` before it
does anything; after a crash the engine calls `interrupted`, which turns a step found running
into `interrupted` and tells the person — it never runs the step again by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jarvis.app.focus.hold import hold_point
from jarvis.app.focus.panel import panel_event
from jarvis.app.unattended.notify import ProactiveHub
from jarvis.app.unattended.runs import UnattendedTurns
from jarvis.common.i18n import t
from jarvis.core.focus.findings import findings
from jarvis.core.focus.render import AREAS, state_event
from jarvis.core.focus.state import (
    MAX_STEPS,
    Event,
    FocusStep,
    FocusTask,
    TaskStatus,
    first_open_step,
    next_status,
    parse_plan,
)
from jarvis.core.focus.store import FocusStore


def split_due(due: str) -> tuple[str, int]:
    """`"3.2"` → ("3", 2); `"plan"` → ("plan", 1)."""
    name, _, attempt = due.partition(".")
    return name, int(attempt or 1)


class FocusRunner:
    def __init__(
        self,
        app: Any,
        turns: UnattendedTurns,
        hub: ProactiveHub,
        terminal: Callable[[str], None] | None = None,
    ) -> None:
        self.app = app
        self.turns = turns
        self.hub = hub
        self.terminal = terminal
        self.home = app.settings.home
        self.store = FocusStore(self.home)

    @property
    def lang(self) -> Any:
        return self.app.settings.language

    def now(self) -> int:
        return int(self.app.clock.now_ms())

    # -- what the engine calls ----------------------------------------------------------------
    async def execute(self, task_id: str, due: str) -> dict[str, Any]:
        name, attempt = split_due(due)
        if name == "plan":
            return await self.plan(task_id, attempt)
        return await self.step(task_id, int(name), attempt)

    async def interrupted(self, task_id: str, due: str) -> dict[str, Any]:
        """The run began in a process that died. Work that never started runs now; work that
        had started is marked interrupted (never rerun); finished work stays finished."""
        name, attempt = split_due(due)
        task = self.store.load(task_id)
        if task is None:
            return {"status": "skipped"}
        if name == "plan":
            if task.status != "planning" or task.plan_attempt != attempt or task.steps:
                return {"status": "skipped"}
            if not task.started_ms:
                return await self.plan(task_id, attempt)
            return await self._crashed(task_id, 0, "plan")
        number = int(name)
        step = task.steps[number - 1] if 0 < number <= len(task.steps) else None
        if step is None or step.attempt != attempt:
            return {"status": "skipped"}
        if step.status == "pending":
            return await self.step(task_id, number, attempt)
        if step.status != "running":
            return {"status": step.status}
        return await self._crashed(task_id, number, step.title)

    # -- planning -----------------------------------------------------------------------------
    async def plan(self, task_id: str, attempt: int) -> dict[str, Any]:
        began = False

        def begin(task: FocusTask) -> bool:
            nonlocal began
            if task.status != "planning" or task.plan_attempt != attempt or task.steps:
                return False
            task.started_ms = task.started_ms or self.now()
            task.turns += 1
            began = True
            return True

        task = self.store.update(task_id, begin)
        if task is None or not began:
            return {"status": "skipped"}
        hold_point(self.home, "plan:begun")
        prompt = t("focus.plan_prompt", self.lang, objective=task.objective, max=MAX_STEPS)
        report = await self.turns.run(task, prompt, f"🔎 {task.id}", background=True)
        steps = parse_plan(report.answer) if report.status != "failed" else None
        hold_point(self.home, "plan:answered")
        event: Event = "planned" if steps else "plan_rejected"

        def record(task: FocusTask) -> bool:
            task.tokens += report.tokens
            if task.status == "planning" and not task.steps and steps:
                task.steps = [FocusStep(title=s) for s in steps]
            task.detail = "" if steps else t("focus.plan_rejected", self.lang)
            return True

        self.store.update(task_id, record)
        status = await self._transition(task_id, event)
        self.store.log(task_id, f"{self._stamp()} plan: {len(steps or [])} steps")
        await self._panels(task_id, ("plan", "log"))
        return {"status": "ok" if steps else "failed", "focus_status": status}

    # -- one step -----------------------------------------------------------------------------
    async def step(self, task_id: str, number: int, attempt: int) -> dict[str, Any]:
        now = self.now()
        refused = ""

        def begin(task: FocusTask) -> bool:
            nonlocal refused
            if task.status != "waiting" or first_open_step(task) != number:
                return False
            step = task.steps[number - 1]
            if step.status != "pending" or step.attempt != attempt:
                return False
            exhausted = task.exhausted(now)
            if exhausted:
                refused = f"out of budget: {exhausted}"
                return False
            step.status, step.started_ms = "running", now
            task.status, task.turns = "running", task.turns + 1
            task.started_ms = task.started_ms or now
            return True

        before = self.store.load(task_id)
        task = self.store.update(task_id, begin)
        if task is None or refused:
            if refused:
                await self._fail(task_id, refused)
            return {"status": "skipped" if not refused else "failed", "reason": refused}
        step = task.steps[number - 1]
        if step.status != "running" or step.started_ms != now:
            return {"status": "skipped"}
        await self._announce(task, before.status if before else "waiting", number)
        hold_point(self.home, f"{number}:begun")
        self.store.log(task_id, f"{self._stamp()} step {number} started (#{attempt}): {step.title}")
        missing = await self.turns.preapprovals.missing(task)
        if missing:
            return await self._finish_step(
                task_id, number, None, f"pre-approval missing: {missing}"
            )
        report = await self.turns.run(
            task, self._step_prompt(task, number), f"🔎 {task.id} {number}", background=True
        )
        hold_point(self.home, f"{number}:answered")
        if report.status == "failed":
            return await self._finish_step(task_id, number, report, report.reason)
        for finding in findings(report.answer):
            refs = [self.store.cite(task_id, url) for url in finding.urls]
            hold_point(self.home, f"{number}:cited")
            self.store.analyse(task_id, number, finding.item, {"text": finding.text, "refs": refs})
            hold_point(self.home, f"{number}:analysed")
        return await self._finish_step(task_id, number, report, "")

    def _step_prompt(self, task: FocusTask, number: int) -> str:
        plan = "\n".join(f"{n}. {s.title}" for n, s in enumerate(task.steps, 1))
        return t(
            "focus.step_prompt",
            self.lang,
            step=number,
            total=len(task.steps),
            objective=task.objective,
            plan=plan,
            title=task.steps[number - 1].title,
        )

    async def _finish_step(
        self, task_id: str, number: int, report: Any, failure: str
    ) -> dict[str, Any]:
        word = "failed" if failure else "done"
        self.store.log(
            task_id, f"{self._stamp()} step {number} {word}" + (f": {failure}" if failure else "")
        )
        hold_point(self.home, f"{number}:logged")
        previous: TaskStatus = "running"

        def record(task: FocusTask) -> bool:
            nonlocal previous
            previous = task.status
            step = task.steps[number - 1]
            step.status = "failed" if failure else "done"
            step.finished_ms = self.now()
            if report is not None:
                step.tokens, step.session_id = report.tokens, report.session_id
                task.tokens += report.tokens
            last = first_open_step(task) is None
            event: Event = "step_failed" if failure else ("last_step_done" if last else "step_done")
            # Paused or stopped meanwhile: the step's work is kept, the status stays.
            task.status = next_status(task.status, event) or task.status
            task.detail = failure[:500]
            task.updated_ms = self.now()
            return True

        task = self.store.update(task_id, record)
        assert task is not None
        await self._announce(task, previous, number)
        await self._panels(task_id, AREAS)
        hold_point(self.home, f"{number}:end")
        return {"status": "failed" if failure else "ok", "focus_status": task.status}

    # -- crashes, failures, transitions -------------------------------------------------------
    async def _crashed(self, task_id: str, number: int, title: str) -> dict[str, Any]:
        previous: TaskStatus = "running"

        def mark(task: FocusTask) -> bool:
            nonlocal previous
            previous = task.status
            if number:
                task.steps[number - 1].status = "interrupted"
            task.status = next_status(task.status, "crashed") or task.status
            task.detail = t("unattended.run_interrupted", self.lang)
            task.updated_ms = self.now()
            return True

        task = self.store.update(task_id, mark)
        assert task is not None
        text = t("focus.interrupted", self.lang, task=task_id, step=number or "plan", title=title)
        self.store.log(task_id, f"{self._stamp()} step {number or 'plan'} interrupted")
        await self.hub.publish(task.owner, text, "proactive", f"{task.key}:interrupted:{number}")
        await self._announce(task, previous, number or None)
        await self._panels(task_id, ("plan", "log"))
        return {"status": "failed", "reason": "interrupted"}

    async def _fail(self, task_id: str, reason: str) -> None:
        await self._transition(task_id, "step_failed", reason)

    async def _transition(self, task_id: str, event: Event, detail: str = "") -> TaskStatus | None:
        previous: TaskStatus = "planning"

        def move(task: FocusTask) -> bool:
            nonlocal previous
            previous = task.status
            target = next_status(task.status, event)
            if event == "step_failed" and task.status == "waiting":
                target = "failed"  # out of budget before a step began
            if target is None:
                return False
            task.status, task.updated_ms = target, self.now()
            task.detail = detail[:500] or task.detail
            return True

        task = self.store.update(task_id, move)
        if task is None:
            return None
        await self._announce(task, previous, None)
        return task.status

    async def _announce(self, task: FocusTask, previous: str, number: int | None) -> None:
        """`focus_state` to the owner's windows and one line in the terminal that runs it."""
        if previous == task.status:
            return
        step = f" ({number}/{len(task.steps)})" if number else ""
        line = t(
            "focus.state_line",
            self.lang,
            task=task.id,
            previous=previous,
            state=task.status,
            step=step,
        )
        if self.terminal is not None:
            self.terminal(line)
        await self.hub.send(task.owner, state_event(task, previous, number))

    async def _panels(self, task_id: str, areas: tuple[str, ...]) -> None:
        task = self.store.load(task_id)
        if task is None:
            return
        for area in areas:
            await self.hub.send(task.owner, panel_event(self.store, task, area))

    def _stamp(self) -> str:
        from datetime import UTC, datetime

        return datetime.fromtimestamp(self.now() / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
