"""Web API of external sources (docs/sources.md) for the HUD's Sources card: the caller's
sources with their one-line status, add (off), the owner's pre-approval (turns it on), remove —
the same functions as `jarvis sources`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from jarvis.app.sources.manage import (
    add_source,
    edit_source,
    find_source,
    grant_source,
    remove_source,
    source_rows,
)
from jarvis.core.scheduler.preapproval import NotOwner

if TYPE_CHECKING:
    from jarvis.ui.web.web_app import WebApp


class AddBody(BaseModel):
    id: str = Field(min_length=1, max_length=64)
    url: str = Field(min_length=1, max_length=2000)
    every: str = Field(default="1 hour", max_length=40)
    match: list[str] = Field(default_factory=list, max_length=50)
    notify: Literal["digest", "immediate", "off"] = "digest"
    interests: bool = False


class EditBody(BaseModel):
    # Loose on purpose: the source's own validation says what is wrong, in one line.
    notify: str | None = Field(default=None, max_length=40)
    max_per_day: int | str | None = None


def register(app: FastAPI, state: WebApp) -> None:
    home = state.assembly.settings.home
    store = state.unattended.preapprovals

    def mine(request: Request, source_id: str) -> None:
        try:
            source = find_source(home, source_id)
        except (LookupError, ValueError) as exc:
            raise HTTPException(404, str(exc)) from None
        if source.owner != request.state.user:
            raise HTTPException(403, f"only the owner ({source.owner}) may change {source.key}")

    @app.get("/api/sources")
    async def listing(request: Request) -> list[dict[str, Any]]:
        return await source_rows(home, store, request.state.user)

    @app.post("/api/sources")
    async def add(body: AddBody, request: Request) -> JSONResponse:
        words = [w.strip() for w in body.match if w.strip()]
        try:
            source = add_source(
                home, body.id.strip(), body.url, every=body.every, match=words,
                notify=body.notify, interests=body.interests, owner=request.state.user,
            )  # fmt: skip
        except ValueError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=422)
        return JSONResponse({"id": source.id, "host": source.host, "state": "off"})

    @app.post("/api/sources/{source_id}/grant")
    async def grant(source_id: str, request: Request) -> JSONResponse:
        mine(request, source_id)
        try:
            source = await grant_source(home, store, source_id, request.state.user)
        except NotOwner as exc:
            return JSONResponse({"detail": str(exc)}, status_code=403)
        return JSONResponse({"id": source.id, "host": source.host, "state": "on"})

    @app.post("/api/sources/{source_id}/edit")
    async def edit(source_id: str, body: EditBody, request: Request) -> JSONResponse:
        mine(request, source_id)
        changes = body.model_dump(exclude_none=True)
        try:
            source = edit_source(home, source_id, **changes)
        except ValueError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=422)
        return JSONResponse(
            {"id": source.id, "notify": source.notify, "max_per_day": source.max_per_day}
        )

    @app.post("/api/sources/{source_id}/remove")
    async def remove(source_id: str, request: Request) -> dict[str, Any]:
        mine(request, source_id)
        remove_source(home, source_id)
        return {"removed": source_id}
