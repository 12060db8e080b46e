"""Revoking an approval rule from the HUD, and undoing that revoke for a short while.

Undo puts back exactly the rules the revoke removed (kept here, per person, under a random
token), never a rule the request describes: a page cannot use it to grant itself a rule.
Shared `approvals.yaml` rules (hand-written, admin only) are revoked without an undo.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from jarvis.core.policy.rule_store import RuleFileError, RulePermissionError
from jarvis.core.policy.rules import Rule

if TYPE_CHECKING:
    from jarvis.ui.web.web_app import WebApp

UNDO_SECONDS = 600
_KEPT = 50


class RevokeRequest(BaseModel):
    agent: str | None = None
    tool: str
    pattern: str


class UndoRequest(BaseModel):
    token: str


class RevokedRules:
    """What recent revokes removed, by token: (user, agent, rules, when)."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[str, str, list[Rule], float]] = {}

    def keep(self, user: str, agent: str, rules: list[Rule]) -> str:
        token = secrets.token_urlsafe(16)
        self._kept[token] = (user, agent, rules, time.monotonic())
        while len(self._kept) > _KEPT:
            self._kept.pop(next(iter(self._kept)))
        return token

    def take(self, token: str, user: str) -> tuple[str, list[Rule]] | None:
        kept = self._kept.get(token)
        if kept is None or kept[0] != user or time.monotonic() - kept[3] > UNDO_SECONDS:
            return None
        del self._kept[token]
        return kept[1], kept[2]


def register(app: FastAPI, state: WebApp) -> None:
    rules = state.assembly.rules
    revoked = RevokedRules()

    async def removable(agent: str, body: RevokeRequest, user: str, admin: bool) -> list[Rule]:
        listing = await rules.list_all()
        return [
            rule
            for origin, found in listing.items()
            if rules.agent_of(origin) == agent
            for rule in found
            if rule.tool == body.tool
            and rule.pattern == body.pattern
            and (admin or rule.granted_by == user)
        ]

    @app.post("/api/rules/revoke")
    async def revoke(body: RevokeRequest, request: Request) -> JSONResponse:
        user = request.state.user
        admin = state.assembly.sandbox.is_admin(user)
        agent = body.agent or "main"
        try:
            before = [] if body.agent is None else await removable(agent, body, user, admin)
            removed = await rules.revoke(
                agent, body.tool, body.pattern, shared=body.agent is None, user=user, admin=admin
            )
        except RulePermissionError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=403)
        except RuleFileError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=409)
        except ValueError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=422)
        token = revoked.keep(user, agent, before) if removed and before else None
        return JSONResponse({"removed": removed, "undo": token})

    @app.post("/api/rules/undo")
    async def undo(body: UndoRequest, request: Request) -> JSONResponse:
        kept = revoked.take(body.token, request.state.user)
        if kept is None:
            return JSONResponse({"detail": "nothing to undo (expired or not yours)"}, 404)
        agent, back = kept
        try:
            restored = [await rules.add_rule(agent, rule) for rule in back]
        except RuleFileError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=409)
        return JSONResponse({"restored": sum(restored)})
