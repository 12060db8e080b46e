"""Web API of unattended work: schedules, goals and the owner's pre-approval window."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel

from jarvis.app.unattended.service import PreapprovalRequired
from jarvis.core.scheduler.preapproval import NotOwner

if TYPE_CHECKING:
    from jarvis.ui.web.web_app import WebApp


class EnableBody(BaseModel):
    enabled: bool


class GrantBody(BaseModel):
    definition: str  # "schedule:<id>" or "goal:<id>"
    tools: list[str]


class RevokeBody(BaseModel):
    definition: str
    tool: str


class GoalStatusBody(BaseModel):
    status: Literal["active", "paused", "stopped"]


def _refusal(exc: Exception) -> JSONResponse:
    if isinstance(exc, PreapprovalRequired):
        return JSONResponse({"detail": str(exc), "missing": exc.missing}, status_code=409)
    if isinstance(exc, NotOwner):
        return JSONResponse({"detail": str(exc)}, status_code=403)
    if isinstance(exc, LookupError):
        return JSONResponse({"detail": str(exc)}, status_code=404)
    return JSONResponse({"detail": str(exc)}, status_code=422)


_EXPECTED = (PreapprovalRequired, NotOwner, LookupError, ValueError)
_KEEPALIVE_SEC = 15.0


async def _event_stream(request: Request, state: WebApp) -> AsyncIterator[str]:
    """Server-sent `proactive_message`s for a window that has no session socket yet (the HUD
    opens one only with the first message); the page drops ones it has already shown."""
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    leave = state.unattended.hub.attach(request.state.user, queue.put_nowait)
    try:
        yield ": open\n\n"
        while not await request.is_disconnected():
            try:
                event = await asyncio.wait_for(queue.get(), _KEEPALIVE_SEC)
            except TimeoutError:
                yield ": keepalive\n\n"
                continue
            yield f"data: {json.dumps(event, ensure_ascii=False)}\n\n"
    finally:
        leave()


def register(app: FastAPI, state: WebApp) -> None:
    service = state.unattended

    @app.get("/api/unattended/events")
    async def events(request: Request) -> StreamingResponse:
        return StreamingResponse(
            _event_stream(request, state),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store"},
        )

    @app.get("/api/unattended/schedules")
    async def schedules(request: Request) -> list[dict[str, Any]]:
        return await service.list_schedules(request.state.user)

    @app.post("/api/unattended/schedules/{schedule_id}/enabled")
    async def enable(schedule_id: str, body: EnableBody, request: Request) -> JSONResponse:
        try:
            done = await service.set_enabled(schedule_id, body.enabled, request.state.user)
        except _EXPECTED as exc:
            return _refusal(exc)
        return JSONResponse({"id": done.id, "enabled": done.enabled})

    @app.post("/api/unattended/schedules/{schedule_id}/run")
    async def run(schedule_id: str, request: Request) -> JSONResponse:
        try:
            run_id = await service.run_now(schedule_id, request.state.user)
        except _EXPECTED as exc:
            return _refusal(exc)
        return JSONResponse({"run_id": run_id})

    @app.get("/api/unattended/preapproval")
    async def window(definition: str, request: Request) -> JSONResponse:
        try:
            found = service.definition(definition)
        except _EXPECTED as exc:
            return _refusal(exc)
        rows = await service.describe(found)
        return JSONResponse(
            {
                "definition": definition,
                "owner": found.owner,
                "may_grant": found.owner == request.state.user,
                "tools": rows,
            }
        )

    @app.post("/api/unattended/preapproval")
    async def grant(body: GrantBody, request: Request) -> JSONResponse:
        try:
            found = service.definition(body.definition)
            await service.preapprovals.grant(found, body.tools, request.state.user)
        except _EXPECTED as exc:
            return _refusal(exc)
        return JSONResponse({"tools": await service.describe(found)})

    @app.post("/api/unattended/preapproval/revoke")
    async def revoke(body: RevokeBody, request: Request) -> JSONResponse:
        try:
            found = service.definition(body.definition)
            removed = await service.preapprovals.revoke(found, body.tool, request.state.user)
        except _EXPECTED as exc:
            return _refusal(exc)
        return JSONResponse({"removed": removed})

    @app.get("/api/unattended/goals")
    async def goals(request: Request) -> list[dict[str, Any]]:
        return [g.model_dump() for g in service.list_goals(request.state.user)]

    @app.post("/api/unattended/goals/{goal_id}")
    async def goal_status(goal_id: str, body: GoalStatusBody, request: Request) -> JSONResponse:
        try:
            goal = await service.set_goal_status(goal_id, body.status, request.state.user)
        except _EXPECTED as exc:
            return _refusal(exc)
        return JSONResponse({"id": goal.id, "status": goal.status})
