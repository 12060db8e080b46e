"""Renaming and deleting sessions (the HUD's sessions list).

Both change state, so the boundary checks them before they run (`OriginGuard`: only the HUD's
own origin; the guard: a login). Only the session's owner may touch it; a session with a turn
running is not deleted under it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field

from jarvis.agent_layer.sessions.base import TITLE_MAX

if TYPE_CHECKING:
    from jarvis.app.session_builder import SessionBuilder
    from jarvis.ui.web.web_app import WebApp


class RenameRequest(BaseModel):
    title: str = Field(min_length=1, max_length=TITLE_MAX * 4)


def register(app: FastAPI, state: WebApp) -> None:
    store = state.assembly.session_store

    async def owned(session_id: str, user: str) -> SessionBuilder:
        """The builder of the caller's own session (404 unknown, 403 another user's)."""
        info = await store.get_info(session_id)
        builder = state.agents.get(info.agent_id) if info is not None else None
        if info is None or builder is None:
            raise HTTPException(404, f"no such session: {session_id}")
        if info.user_id != user:
            raise HTTPException(403, "this session belongs to another user")
        return builder

    @app.patch("/api/sessions/{session_id}")
    async def rename(session_id: str, body: RenameRequest, request: Request) -> dict[str, Any]:
        await owned(session_id, request.state.user)
        if not body.title.strip():
            raise HTTPException(422, "the title is empty")
        await store.rename(session_id, body.title)
        info = await store.get_info(session_id)
        return info.model_dump() if info else {}

    @app.delete("/api/sessions/{session_id}")
    async def delete(session_id: str, request: Request) -> dict[str, Any]:
        builder = await owned(session_id, request.state.user)
        live = builder.live.get(session_id)
        if live is not None and live.running:
            raise HTTPException(409, "a turn is running in this session; stop it first")
        builder.forget(session_id)
        return {"deleted": await store.delete(session_id)}
