"""`GET /api/agents`: the top-level agents the HUD's switcher offers (sessions carry their
agent id, so the page groups them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI

if TYPE_CHECKING:
    from jarvis.ui.web.web_app import WebApp


def answering_model(state: WebApp, configured: str) -> str:
    """The model the HUD's header names: the configured one, or `demo` in the demo (whose
    scripted model answers whatever is configured)."""
    return "demo" if state.assembly.demo else configured


def register_agent_routes(app: FastAPI, state: WebApp) -> None:
    @app.get("/api/agents")
    async def agents() -> dict[str, Any]:
        settings = state.assembly.settings
        rows = [  # the model answering is named in the HUD's header
            {
                "id": profile.agent_id,
                "name": profile.name,
                "model": answering_model(state, (profile.model or settings.model).model),
            }
            for profile in state.agents.profiles()
        ]
        subagents = [
            {"name": spec.name, "description": spec.description, "level": spec.level}
            for spec in state.assembly.definitions.subagents.values()
        ]
        return {"agents": rows, "subagents": subagents}
