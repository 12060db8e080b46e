"""The FastAPI app: REST for sessions, approvals, rules, audit; a WebSocket per connection.

The web layer only translates: events out, client messages in. Everything else is the shared
assembly (`AppAssembly`) that the terminal uses too. Who may reach it is decided before any
route runs: `security` (Host, Origin, body size, headers), then `guard` here (login, rate limit).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.middleware.trustedhost import TrustedHostMiddleware

from jarvis import __version__
from jarvis.app.infra import AppAssembly
from jarvis.app.settings import SettingsError
from jarvis.common.i18n import t
from jarvis.common.logging import get_logger
from jarvis.common.storage_errors import StorageUnavailable, describe_storage_error
from jarvis.core.policy.rule_store import visible_to
from jarvis.ui.web import (
    routes_focus,
    routes_learning,
    routes_mcp,
    routes_proactive,
    routes_rules,
    routes_sessions,
    routes_sources,
    routes_unattended,
)
from jarvis.ui.web.commands import register as register_command_routes
from jarvis.ui.web.hud_access import PUBLIC_PATHS, PUBLIC_PREFIXES, register_access_routes
from jarvis.ui.web.page_language import asked_language, page_language
from jarvis.ui.web.routes_agents import register_agent_routes
from jarvis.ui.web.security import (
    BodyLimit,
    OriginGuard,
    SecurityHeaders,
    allowed_hosts,
)
from jarvis.ui.web.static_files import register_static_route
from jarvis.ui.web.web_app import WebApp
from jarvis.ui.web.ws_connection import ANSWER_STATUS, serve_connection

_log = get_logger("jarvis.web")
_HISTORY_LIMIT = 200
# Seconds a stopping server waits for open connections (a HUD tab's event stream never ends
# by itself) before it cancels them and shuts the app down.
SHUTDOWN_GRACE_SEC = 2
_LOOP_STATUS = {"ok": 200, "not_found": 404, "forbidden": 403, "conflict": 409}


class ApprovalAnswer(BaseModel):
    answer: str
    session_id: str  # the conversation the request belongs to (seed 002 checks both)


class LoopStatusUpdate(BaseModel):
    status: Literal["open", "done", "dismissed"]


def create_app(assembly: AppAssembly, *, after_start: Callable[[], None] | None = None) -> FastAPI:
    """The web app; `after_start` runs once everything has started (the server process tunes
    its garbage collector there)."""
    state = WebApp(assembly)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            await assembly.start()
        except SettingsError as exc:
            _log.error("%s", exc)  # one clear line; uvicorn then stops
            raise
        state.follow_other_processes()
        await state.unattended.start(serving=True)
        if after_start is not None:
            after_start()
        try:
            yield
        finally:
            await state.unattended.aclose()
            await assembly.aclose()

    app = FastAPI(title="Jarvis", version=__version__, lifespan=lifespan)
    app.state.web = state

    async def storage_unavailable(request: Request, exc: Exception) -> Response:
        # Refused, not lost: a 503 means nothing was stored, so the client may retry.
        cause = describe_storage_error(exc)
        _log.warning("request refused: %s", cause)
        lang = page_language(request.query_params, request.headers, state.lang)
        return JSONResponse({"detail": t("web.storage_unavailable", lang, cause=cause)}, 503)

    for failure in StorageUnavailable:
        app.add_exception_handler(failure, storage_unavailable)

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        path = request.url.path
        if path in PUBLIC_PATHS or path.startswith(PUBLIC_PREFIXES):
            return await call_next(request)
        user = state.auth.user_for(request)
        if user is None:
            lang = page_language(request.query_params, request.headers, state.lang)
            return JSONResponse({"detail": t("web.unauthorized", lang)}, status_code=401)
        # Writes and connects count; reads do not (a page load reads a dozen panels, and a few
        # tabs reloading must not lock their owner out of the history).
        counted = request.method not in ("GET", "HEAD")
        if counted and path.startswith("/api/") and not state.limiter.allow(user):
            lang = page_language(request.query_params, request.headers, state.lang)
            return JSONResponse({"detail": t("web.rate_limited", lang)}, status_code=429)
        request.state.user = user
        return await call_next(request)

    # Added innermost first: a request meets SecurityHeaders, Host, Origin, BodyLimit, guard.
    web = assembly.settings.web
    hosts = allowed_hosts(web.host, web.allowed_hosts)
    app.add_middleware(BodyLimit, lang=state.lang)
    app.add_middleware(OriginGuard, hosts=hosts, origins=web.allowed_origins, lang=state.lang)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts, www_redirect=False)
    app.add_middleware(SecurityHeaders)
    register_access_routes(app, state)
    routes_mcp.register(app, assembly)
    register_agent_routes(app, state)
    register_command_routes(app, state.commands)
    routes_unattended.register(app, state)
    routes_proactive.register(app, state)
    routes_focus.register(app, state)
    routes_sources.register(app, state)
    routes_learning.register(app, state)

    register_static_route(app)
    routes_sessions.register(app, state)
    routes_rules.register(app, state)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__, "demo": assembly.demo}

    @app.get("/api/sessions")
    async def list_sessions(request: Request) -> list[dict[str, Any]]:
        return [i.model_dump() for i in await state.agents.list(user_id=request.state.user)]

    @app.post("/api/sessions")
    async def create_session(request: Request, agent: str | None = None) -> dict[str, Any]:
        builder = state.agents.get(agent)
        if builder is None:
            raise HTTPException(404, f"no such agent: {agent}")
        asked = asked_language(request.query_params, request.headers)
        try:
            session = await builder.create(user_id=request.state.user, lang=asked)
        except OSError as exc:  # a full disk or a read-only data dir: one line, no traceback
            lang, reason = asked or assembly.settings.language, exc.strerror or str(exc)
            line = t("files.session_create_failed", lang, path=exc.filename, reason=reason)
            _log.error("%s", line)
            raise HTTPException(507, line) from None
        return session.info.model_dump()

    @app.get("/api/sessions/{session_id}/history")
    async def history(session_id: str, request: Request) -> list[dict[str, Any]]:
        await state.session_for(session_id, request.state.user)
        entries = await assembly.session_store.history(session_id, limit=_HISTORY_LIMIT)
        return [e.model_dump(mode="json") for e in entries]

    @app.post("/api/approvals/{item_id}")
    async def answer(item_id: str, body: ApprovalAnswer, request: Request) -> JSONResponse:
        user = request.state.user
        result = await assembly.pending.answer(item_id, user, body.answer, body.session_id)
        return JSONResponse({"result": result}, status_code=ANSWER_STATUS[result])

    @app.get("/api/rules")
    async def rules(request: Request) -> dict[str, Any]:
        files = await _rules_view(state, request.state.user)
        return {"files": files, "errors": assembly.rules.errors()}

    @app.get("/api/audit")
    async def audit(
        request: Request,
        tool: str | None = None,
        outcome: str | None = None,
        session: str | None = None,
        limit: int = 200,
    ) -> list[dict[str, Any]]:
        rows = await assembly.audit.query(
            limit=limit, user=request.state.user, tool=tool, outcome=outcome, session=session
        )
        return [r.model_dump() for r in rows]

    @app.get("/api/extensions")
    async def extensions() -> dict[str, Any]:
        rows = [
            {"kind": r.kind, "name": r.name, "file": str(r.file), "ok": r.ok, "detail": r.detail}
            for r in assembly.extensions.status()
        ]
        servers = [
            {
                "kind": "mcp",
                "file": "",
                "detail": f"{m.tool_count} tools" if m.ok else (m.error or m.state),
                **m.as_dict(),
                "ok": m.ok,
            }
            for m in assembly.mcp.status()
        ]
        return {"items": rows + servers}

    @app.get("/api/agenda")
    async def agenda(request: Request) -> dict[str, Any]:
        view = await assembly.openloops.agenda(state.builder.agent_id, request.state.user)
        return view.model_dump()

    @app.post("/api/openloops/{loop_id}")
    async def set_loop_status(
        loop_id: str, body: LoopStatusUpdate, request: Request
    ) -> JSONResponse:
        result = await assembly.openloops.set_status(loop_id, request.state.user, body.status)
        return JSONResponse({"result": result}, status_code=_LOOP_STATUS[result])

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        # Host and Origin were checked before this runs. Accept first so the close code
        # (4401/4403/4404/4429) reaches the page.
        user = state.auth.user_for(ws)
        await ws.accept()
        if user is None:
            await ws.close(code=4401, reason="login required")
            return
        if not state.limiter.allow(user):  # connecting counts like any other request
            await ws.close(code=4429, reason="too many requests")
            return
        try:
            query = ws.query_params
            lang = asked_language(query, ws.headers)  # the page's, else its browser's
            session = await state.session_for(query.get("session"), user, query.get("agent"), lang)
        except HTTPException as exc:
            await ws.close(code=4000 + exc.status_code, reason=str(exc.detail))
            return
        except StorageUnavailable as exc:  # the page reconnects and tries again
            await ws.close(code=4503, reason=describe_storage_error(exc)[:120])
            return
        await serve_connection(state, ws, session, user, batched=query.get("batch") == "1")

    return app


async def _rules_view(state: WebApp, user: str) -> dict[str, list[dict[str, Any]]]:
    """The shared rules, hand-written ones, and the person's own ALWAYS rules (an admin sees
    everyone's, each marked with who granted it)."""
    admin = state.assembly.sandbox.is_admin(user)
    view: dict[str, list[dict[str, Any]]] = {}
    for origin, rules in (await state.assembly.rules.list_all()).items():
        agent = state.assembly.rules.agent_of(origin)
        rows = []
        for rule in rules:
            if agent is not None and not admin and not visible_to(rule, user):
                continue
            tool = state.assembly.tools.get(rule.tool)
            stale = tool is not None and state.assembly.sandbox.is_stale(rule, tool, user)
            rows.append(
                {
                    **rule.model_dump(),
                    "origin": origin,
                    "agent": agent,
                    "stale": stale,
                    "unknown_tool": tool is None,
                    "can_revoke": admin or (agent is not None and rule.granted_by == user),
                }
            )
        view[origin] = rows
    return view
