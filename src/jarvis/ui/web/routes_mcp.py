"""MCP routes: server states for the HUD, reconnect, answers to elicitation forms."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, FastAPI, HTTPException, Request
from pydantic import BaseModel

from jarvis.app.infra import AppAssembly
from jarvis.core.mcp.elicitation import Answer


class ReconnectBody(BaseModel):
    name: str | None = None


class ElicitationAnswer(BaseModel):
    session_id: str
    action: Literal["accept", "decline", "cancel"]
    content: dict[str, Any] | None = None


def register(app: FastAPI, assembly: AppAssembly) -> None:
    router = APIRouter(prefix="/api/mcp")

    @router.get("")
    async def servers() -> dict[str, Any]:
        return {"servers": [status.as_dict() for status in assembly.mcp.status()]}

    @router.post("/reconnect")
    async def reconnect(body: ReconnectBody) -> dict[str, Any]:
        try:
            names = assembly.mcp.reconnect(body.name)
        except KeyError:
            raise HTTPException(404, f"no such MCP server: {body.name}") from None
        return {"reconnecting": names}

    @router.post("/elicitations/{request_id}")
    async def answer(request_id: str, body: ElicitationAnswer, request: Request) -> dict[str, Any]:
        info = await assembly.session_store.get_info(body.session_id)
        if info is None or info.user_id != request.state.user:
            raise HTTPException(403, "this session belongs to another user")
        desk = assembly.mcp.desk
        settled = desk is not None and desk.answer(
            request_id, body.session_id, Answer(body.action, body.content)
        )
        if not settled:
            raise HTTPException(409, "already answered or no longer open")
        return {"ok": True}

    app.include_router(router)
