"""MCP routes: server states for the HUD, a server's resources and URI templates, reconnect,
answers to elicitation forms, and what the composer offers while `/<server>:<prompt> args` is
typed (prompt names, argument values)."""

from __future__ import annotations

import json
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from pydantic import BaseModel

from jarvis.app.infra import AppAssembly
from jarvis.core.mcp import MCPServerError
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

    @router.get("/prompts")
    async def prompts() -> dict[str, Any]:
        return {"prompts": [prompt.as_dict() for prompt in await assembly.mcp.prompts()]}

    @router.get("/resources")
    async def resources(server: str) -> dict[str, Any]:
        try:
            catalog = await assembly.mcp.resources(server)
        except KeyError:
            raise HTTPException(404, f"no such MCP server: {server}") from None
        except MCPServerError as exc:
            raise HTTPException(502, str(exc)) from None
        return catalog.as_dict()

    # GET, like the other reads: typing sends one per pause, and writes count toward the limit.
    @router.get("/complete")
    async def complete(
        server: str,
        prompt: str,
        argument: str,
        value: str = "",
        context: str = Query("{}", description="JSON object: the arguments already given"),
    ) -> dict[str, Any]:
        given = _json_object(context)
        if given is None:
            raise HTTPException(422, "context must be a JSON object")
        try:
            values = await assembly.mcp.complete(server, prompt, argument, value, given)
        except KeyError:
            raise HTTPException(404, f"no such MCP server: {server}") from None
        except MCPServerError as exc:
            raise HTTPException(502, str(exc)) from None
        return {"values": values}

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


def _json_object(text: str) -> dict[str, str] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else None
