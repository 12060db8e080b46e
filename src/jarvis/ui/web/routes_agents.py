"""`GET /api/agents`: the top-level agents the HUD's switcher offers (sessions carry their
agent id, so the page groups them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI

if TYPE_CHECKING:
    from jarvis.ui.web.web_app import WebApp


def register_agent_routes(app: FastAPI, state: WebApp) -> None:
    @app.get("/api/agents")
    async def agents() -> dict[str, Any]:
        rows = [
            {"id": profile.agent_id, "name": profile.name} for profile in state.agents.profiles()
        ]
        subagents = [
            {"name": spec.name, "description": spec.description, "level": spec.level}
            for spec in state.assembly.definitions.subagents.values()
        ]
        return {"agents": rows, "subagents": subagents}
