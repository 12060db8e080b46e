"""Web API of Focus tasks (docs/focus.md) for the HUD's Focus panel: the caller's tasks, one
task with its four areas read from its files (so a reload shows what is on disk), start, and
pause / resume / stop — the same `FocusTasks` functions `/focus` and `jarvis focus` use. A
change made here is told to every open window of the owner (`focus_state`, `focus_panel`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field

from jarvis.app.focus.panel import area_markdown
from jarvis.app.focus.tasks import FocusNotAllowed, FocusTasks
from jarvis.core.focus.render import AREAS
from jarvis.core.focus.state import FocusTask

if TYPE_CHECKING:
    from jarvis.ui.web.web_app import WebApp


class StartBody(BaseModel):
    objective: str = Field(min_length=1, max_length=500)


def summary(task: FocusTask) -> dict[str, Any]:
    return {
        "id": task.id,
        "objective": task.objective,
        "state": task.status,
        "busy": task.status in ("planning", "running"),
        "done": sum(1 for s in task.steps if s.status == "done"),
        "steps": len(task.steps),
        "detail": task.detail,
        "updated_ms": task.updated_ms or task.created_ms,
    }


def register(app: FastAPI, state: WebApp) -> None:
    assembly = state.assembly
    hub = state.unattended.hub

    def tasks() -> FocusTasks:
        return FocusTasks(assembly.settings.home, assembly.clock.now_ms, state.lang, hub.send)

    def own(request: Request, task_id: str) -> FocusTask:
        try:
            task = tasks().get(task_id)
        except (LookupError, ValueError):
            raise HTTPException(404, "no such focus task") from None
        if task.owner != request.state.user:
            raise HTTPException(404, "no such focus task")  # another person's: not even named
        return task

    @app.get("/api/focus")
    async def listing(request: Request) -> list[dict[str, Any]]:
        found = tasks().list(request.state.user)
        return [summary(t) for t in sorted(found, key=lambda t: -(t.updated_ms or t.created_ms))]

    @app.get("/api/focus/{task_id}")
    async def show(task_id: str, request: Request) -> dict[str, Any]:
        task = own(request, task_id)
        store = tasks().store
        areas = {area: area_markdown(store, task, area) for area in AREAS}
        return {**summary(task), "areas": areas}

    @app.post("/api/focus")
    async def start(body: StartBody, request: Request) -> dict[str, Any]:
        if not body.objective.strip():
            raise HTTPException(422, "an objective is needed")
        made = tasks()
        task = made.start(body.objective, owner=request.state.user)
        await made.announce(task, "")
        return summary(task)

    @app.post("/api/focus/{task_id}/{action}")
    async def act(
        task_id: str, action: Literal["pause", "resume", "stop"], request: Request
    ) -> dict[str, Any]:
        own(request, task_id)
        try:
            task = await tasks().act(task_id, action, request.state.user)
        except FocusNotAllowed as exc:
            raise HTTPException(409, str(exc)) from None
        return summary(task)
