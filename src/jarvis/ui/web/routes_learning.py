"""Web API of what Jarvis remembers and learned, for the session's agent and person:

- `GET /api/memory?session=` items, `DELETE /api/memory/{id}?session=` forget one,
  `POST /api/memory/wrong?session=` (👎) marks the session's last turn failed;
- `GET /api/procedures?session=` this agent's procedures and drafts,
  `POST /api/procedures/{name}/{approve|reject}?session=`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from fastapi import FastAPI, HTTPException, Request

from jarvis.core.procedures.review import approve, reject
from jarvis.core.session import AgentSession
from jarvis.core.slash.memory import SlashScope, mark_wrong

if TYPE_CHECKING:
    from jarvis.ui.web.web_app import WebApp

_LISTED = 50


def register(app: FastAPI, state: WebApp) -> None:
    assembly = state.assembly

    async def session_of(request: Request) -> AgentSession:
        session_id = request.query_params.get("session")
        if not session_id:  # never a new session as a side effect of a click
            raise HTTPException(422, "session is required")
        return await state.session_for(session_id, request.state.user)

    async def whose(request: Request) -> tuple[str, str]:
        """(agent, person): the session's, or `?agent=` (default main) before a session exists
        (the HUD opens one only with the first message)."""
        if request.query_params.get("session"):
            session = await session_of(request)
            return session.setup.agent_id, session.info.user_id
        agent = request.query_params.get("agent") or "main"
        if state.agents.get(agent) is None:
            raise HTTPException(404, f"no such agent: {agent}")
        return agent, request.state.user

    @app.get("/api/memory")
    async def memory_items(request: Request) -> dict[str, Any]:
        agent, user = await whose(request)
        items = await assembly.memory.items(agent, user, limit=_LISTED)
        return {
            "items": [{"id": i.id, "kind": i.kind, "text": i.text, "ts_ms": i.ts_ms} for i in items]
        }

    @app.delete("/api/memory/{item_id}")
    async def forget(item_id: str, request: Request) -> dict[str, Any]:
        agent, user = await whose(request)
        gone = await assembly.memory.forget(agent, user, item_id)
        if not gone:
            raise HTTPException(404, f"no such memory: {item_id}")
        return {"ok": True}

    @app.post("/api/memory/wrong")
    async def wrong(request: Request) -> dict[str, Any]:
        session = await session_of(request)
        info = session.info
        scope = SlashScope(
            session.setup.agent_id, info.user_id, info.id, info.turns, state.lang,
            assembly.clock.now_ms(),
        )  # fmt: skip
        return {"text": await mark_wrong(assembly.memory, scope, "👎")}

    @app.get("/api/procedures")
    async def procedures(request: Request) -> dict[str, Any]:
        agent, _ = await whose(request)
        if assembly.learning is None:
            return {"procedures": []}
        rows = [
            {
                "name": p.name, "description": p.description, "status": p.status,
                "body": p.body, "revision": p.revision.body if p.revision else None,
                "displaced": len(p.displaced), "tool": p.tool_name, "pattern": p.is_pattern,
            }
            for p in assembly.learning.library.of_agent(agent)
        ]  # fmt: skip
        return {"procedures": rows}

    @app.post("/api/procedures/{name}/{decision}")
    async def decide(
        name: str, decision: Literal["approve", "reject"], request: Request
    ) -> dict[str, Any]:
        agent, user = await whose(request)
        learning = assembly.learning
        if learning is None:
            raise HTTPException(404, "procedure learning is off")
        if decision == "approve":
            result = await approve(
                learning.library, assembly.memory, agent, user, name, assembly.clock.now_ms()
            )
        else:
            result = reject(learning.library, agent, name)
        if result == "not_found":
            raise HTTPException(404, f"no such procedure: {name}")
        return {"result": result}
