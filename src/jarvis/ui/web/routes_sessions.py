"""Searching, renaming and deleting sessions (the HUD's sessions list).

`GET /api/sessions/search?q=` finds the caller's sessions whose title or message text holds the
words (case-insensitive), newest first, each with the matching line. Rename and delete change
state, so the boundary checks them before they run (`OriginGuard`: only the HUD's
own origin; the guard: a login). Only the session's owner may touch it; a session with a turn
running is not deleted under it.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, HTTPException, Query, Request
from pydantic import BaseModel, Field

from jarvis.agent_layer.sessions.base import TITLE_MAX, SessionEntry

if TYPE_CHECKING:
    from jarvis.app.session_builder import SessionBuilder
    from jarvis.ui.web.web_app import WebApp


class RenameRequest(BaseModel):
    title: str = Field(min_length=1, max_length=TITLE_MAX * 4)


# A search reads at most this many sessions (newest first) and entries of each.
SEARCH_SESSIONS = 200
SEARCH_ENTRIES = 400
SNIPPET_CHARS = 80


def snippet(text: str, query: str) -> str | None:
    """The part of `text` around the first match of `query` (case-insensitive), one line;
    None when it does not occur."""
    flat = " ".join(html.unescape(text).split())
    at = flat.casefold().find(query.casefold())
    if at < 0:
        return None
    start = max(0, at - SNIPPET_CHARS // 3)
    end = min(len(flat), start + SNIPPET_CHARS)
    return ("…" if start else "") + flat[start:end] + ("…" if end < len(flat) else "")


def entry_text(entry: SessionEntry) -> str:
    """What the person saw of an entry: their words and the answers (not tool output)."""
    message = entry.message
    return message.content if message.role in ("user", "assistant") else ""


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

    @app.get("/api/sessions/search")
    async def search(
        request: Request, q: str = Query(min_length=1, max_length=200)
    ) -> list[dict[str, Any]]:
        query = " ".join(q.split())
        if not query:
            return []
        hits: list[dict[str, Any]] = []
        sessions = await state.agents.list(user_id=request.state.user)
        for info in sessions[:SEARCH_SESSIONS]:
            found = snippet(info.title, query)
            if found is None:
                entries = await store.history(info.id, limit=SEARCH_ENTRIES)
                found = next(
                    (s for e in entries if (s := snippet(entry_text(e), query)) is not None), None
                )
            if found is not None:
                hits.append({"id": info.id, "snippet": found})
        return hits

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
        state.marks.forget(session_id)
        return {"deleted": await store.delete(session_id)}

    @app.get("/api/sessions/{session_id}/marks")
    async def marks(session_id: str, request: Request) -> list[dict[str, Any]]:
        """What the screen showed that the history does not keep (screen_marks.py)."""
        await owned(session_id, request.state.user)
        return state.marks.marks(session_id)
