"""Starting and steering Focus tasks (the CLI, `/focus`, the web routes): file changes under
the task's lock. The server's ticker starts what they make due (the planning call, the next
step); a transition made here is told to the owner's windows when a `send` is given."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

from jarvis.app.focus.panel import panel_event
from jarvis.common.clock import new_id
from jarvis.common.i18n import Language, t
from jarvis.core.focus.render import AREAS, state_event
from jarvis.core.focus.state import Event, FocusTask, TaskStatus, next_status
from jarvis.core.focus.store import FocusStore

Action = Literal["pause", "resume", "stop"]
Send = Callable[[str, dict[str, Any]], Awaitable[None]]


class FocusNotAllowed(ValueError):
    pass


def task_id_for(objective: str) -> str:
    words = re.sub(r"[^a-z0-9]+", "-", objective.lower()).strip("-")[:24].strip("-")
    return f"{words or 'focus'}-{new_id()[:6].lower()}"


def _resume(task: FocusTask) -> None:
    """Back to work from the first step not done: an interrupted step runs again as a new
    attempt (the person asked for it); an interrupted planning call is made again."""
    if not task.steps:
        task.status = "planning"
        task.plan_attempt += 1
        return
    for step in task.steps:
        if step.status in ("interrupted", "running"):
            step.status = "pending"
            step.attempt += 1
    task.status = "waiting"


class FocusTasks:
    def __init__(
        self, home: Path, now_ms: Callable[[], int], lang: Language, send: Send | None = None
    ) -> None:
        self.home = home
        self.store = FocusStore(home)
        self.now_ms = now_ms
        self.lang = lang
        self.send = send

    def start(
        self,
        objective: str,
        owner: str = "local",
        tools: list[str] | None = None,
        max_turns: int = 20,
    ) -> FocusTask:
        task = FocusTask(
            id=task_id_for(objective),
            objective=objective.strip(),
            owner=owner,
            tools=list(tools or []),
            max_turns=max_turns,
            created_ms=self.now_ms(),
            updated_ms=self.now_ms(),
        )
        self.store.create(task)
        self.store.log(task.id, f"created: {task.objective}")
        return task

    async def announce(self, task: FocusTask, previous: str, areas: bool = True) -> None:
        """Tell the owner's windows (when a `send` is given): `focus_state` when the status
        moved, and every area as `focus_panel`."""
        if self.send is None:
            return
        if previous != task.status:
            await self.send(task.owner, state_event(task, previous, None))
        if areas:
            for area in AREAS:
                await self.send(task.owner, panel_event(self.store, task, area))

    def get(self, task_id: str) -> FocusTask:
        task = self.store.load(task_id)
        if task is None:
            raise LookupError(f"no focus task {task_id!r}")
        return task

    def list(self, owner: str | None = None) -> list[FocusTask]:
        return [task for task in self.store.tasks() if owner in (None, task.owner)]

    async def act(self, task_id: str, action: Action, requester: str) -> FocusTask:
        task = self.get(task_id)
        if requester != task.owner:
            raise PermissionError(f"only the owner ({task.owner}) may {action} {task.key}")
        event: Event = action
        previous: TaskStatus = task.status
        refused = False

        def change(task: FocusTask) -> bool:
            nonlocal previous, refused
            previous = task.status
            target = next_status(task.status, event)
            if target is None:
                refused = True
                return False
            if action == "resume":
                _resume(task)
            else:
                task.status = target
            task.updated_ms = self.now_ms()
            return True

        updated = self.store.update(task_id, change)
        assert updated is not None
        if refused:
            line = t("focus.not_allowed", self.lang, task=task_id, status=previous, action=action)
            raise FocusNotAllowed(line)
        self.store.log(task_id, f"{action}: {previous} → {updated.status}")
        await self.announce(updated, previous)
        return updated
