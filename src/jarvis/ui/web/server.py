"""The FastAPI app: REST for sessions, approvals, rules, audit; a WebSocket per connection.

The web layer only translates: events out, client messages in. Everything else is the shared
assembly (`AppAssembly`) that the terminal uses too.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ValidationError

from jarvis import __version__
from jarvis.app.infra import AppAssembly
from jarvis.app.session_builder import SessionBuilder
from jarvis.app.settings import SettingsError
from jarvis.common.i18n import t
from jarvis.common.logging import get_logger
from jarvis.core.approvals.pg_pending import PostgresPendingStore
from jarvis.core.policy.rule_store import RuleFileError, RulePermissionError, visible_to
from jarvis.core.session import AgentSession
from jarvis.core.slash.openloop import openloop_command
from jarvis.ui.web.auth import KEY_COOKIE, Authenticator, RateLimiter
from jarvis.ui.web.broker import BrokerRegistry, Connection
from jarvis.ui.web.protocol import ClientMessage, parse_client_message

_log = get_logger("jarvis.web")
MAX_BODY_BYTES = 1_000_000
_ANSWER_STATUS = {"ok": 200, "not_found": 404, "forbidden": 403, "conflict": 409, "invalid": 422}
_HISTORY_LIMIT = 200
_LOOP_STATUS = {"ok": 200, "not_found": 404, "forbidden": 403, "conflict": 409}


class ApprovalAnswer(BaseModel):
    answer: str


class LoopStatusUpdate(BaseModel):
    status: Literal["open", "done", "dismissed"]


class RevokeRequest(BaseModel):
    agent: str | None = None
    tool: str
    pattern: str


class WebApp:
    """State shared by the routes: the assembly, the agent's session builder, brokers."""

    def __init__(self, assembly: AppAssembly) -> None:
        self.assembly = assembly
        self.builder = SessionBuilder(assembly)
        self.brokers = BrokerRegistry(assembly.channels, shared=assembly.shared)
        self.auth = Authenticator(assembly.settings.security.api_keys)
        self.limiter = RateLimiter(assembly.settings.security.rate_limit_per_minute)
        self._turns: set[asyncio.Task[Any]] = set()

    async def session_for(self, session_id: str | None, user: str) -> AgentSession:
        if not session_id:
            return await self.builder.create(user_id=user)
        session = await self.builder.open(session_id)
        if session is None:
            raise HTTPException(404, f"no such session: {session_id}")
        if session.info.user_id != user:
            raise HTTPException(403, "this session belongs to another user")
        return session

    def follow_other_processes(self) -> None:
        """With PostgreSQL, requests made and resolved by other processes reach our tabs."""
        store = self.assembly.pending
        if isinstance(store, PostgresPendingStore):
            store.subscribe(lambda event: self._spawn(self._on_notification(event)))

    async def _on_notification(self, event: dict[str, Any]) -> None:
        broker = self.brokers.existing(str(event.get("session_id", "")))
        if broker is None or not broker.connections:
            return
        item = await self.assembly.pending.get(str(event.get("id", "")))
        if item is None:
            return
        if event.get("event") == "created" and item.status == "pending":
            broker.remote_request(item.request)
        elif event.get("event") == "resolved":
            broker.remote_resolved(item.request.id, item.status)

    async def show_stored_requests(self, session: AgentSession) -> None:
        """A tab attaching here sees requests that another process is waiting on."""
        if self.assembly.shared:
            broker = self.brokers.for_session(session.id)
            for request in await self.assembly.pending.pending_for_session(session.id):
                broker.remote_request(request)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._turns.add(task)
        task.add_done_callback(self._turns.discard)

    def start_turn(self, session: AgentSession, text: str) -> None:
        task = asyncio.create_task(session.prompt(text))
        self._turns.add(task)
        task.add_done_callback(self._turns.discard)


def create_app(assembly: AppAssembly) -> FastAPI:
    state = WebApp(assembly)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            await assembly.start()
        except SettingsError as exc:
            _log.error("%s", exc)  # one clear line; uvicorn then stops
            raise
        state.follow_other_processes()
        try:
            yield
        finally:
            await assembly.aclose()

    app = FastAPI(title="Jarvis", version=__version__, lifespan=lifespan)
    app.state.web = state

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        if int(request.headers.get("content-length") or 0) > MAX_BODY_BYTES:
            return JSONResponse({"detail": "request body too large"}, status_code=413)
        if request.url.path == "/api/health":
            return await call_next(request)
        try:
            user = state.auth.require(request)
        except HTTPException as exc:
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)
        if request.url.path.startswith("/api/") and not state.limiter.allow(user):
            return JSONResponse({"detail": "too many requests; slow down"}, status_code=429)
        request.state.user = user
        response = await call_next(request)
        key = request.query_params.get("key")
        if key and state.auth.enabled:
            response.set_cookie(KEY_COOKIE, key, httponly=True, samesite="strict")
        return response

    @app.get("/", response_class=HTMLResponse)
    async def index() -> HTMLResponse:
        html = _static("index.html").replace("{{LANG}}", assembly.settings.language)
        return HTMLResponse(html)

    @app.get("/static/{name}")
    async def static(name: str) -> Response:
        types = {".js": "text/javascript", ".css": "text/css", ".png": "image/png"}
        suffix = name[name.rfind(".") :] if "." in name else ""
        if suffix not in types or "/" in name:
            raise HTTPException(404)
        try:
            data = resources.files("jarvis.ui.web.static").joinpath(name).read_bytes()
        except FileNotFoundError:
            raise HTTPException(404) from None
        return Response(data, media_type=types[suffix])

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__, "demo": assembly.demo}

    @app.get("/api/sessions")
    async def list_sessions(request: Request) -> list[dict[str, Any]]:
        return [i.model_dump() for i in await state.builder.list(user_id=request.state.user)]

    @app.post("/api/sessions")
    async def create_session(request: Request) -> dict[str, Any]:
        try:
            session = await state.builder.create(user_id=request.state.user)
        except OSError as exc:  # a full disk or a read-only data dir: one line, no traceback
            lang, reason = assembly.settings.language, exc.strerror or str(exc)
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
        result = await assembly.pending.answer(item_id, request.state.user, body.answer)
        return JSONResponse({"result": result}, status_code=_ANSWER_STATUS[result])

    @app.get("/api/rules")
    async def rules(request: Request) -> dict[str, Any]:
        files = await _rules_view(state, request.state.user)
        return {"files": files, "errors": assembly.rules.errors()}

    @app.post("/api/rules/revoke")
    async def revoke(body: RevokeRequest, request: Request) -> JSONResponse:
        user = request.state.user
        try:
            removed = await assembly.rules.revoke(
                body.agent or "main",
                body.tool,
                body.pattern,
                shared=body.agent is None,
                user=user,
                admin=assembly.sandbox.is_admin(user),
            )
        except RulePermissionError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=403)
        except RuleFileError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=409)
        except ValueError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=422)
        return JSONResponse({"removed": removed})

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
                "name": m.name,
                "file": "",
                "ok": m.ok,
                "detail": f"{m.tool_count} tools" if m.ok else (m.error or ""),
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
        # Accept first so the close code (4401/4403/4404) reaches the page.
        await ws.accept()
        user = state.auth.user_for(state.auth.presented(ws))
        if user is None:
            await ws.close(code=4401, reason="missing or wrong API key")
            return
        try:
            session = await state.session_for(ws.query_params.get("session"), user)
        except HTTPException as exc:
            await ws.close(code=4000 + exc.status_code, reason=str(exc.detail))
            return
        await _serve_connection(state, ws, session, user)

    return app


async def _serve_connection(state: WebApp, ws: WebSocket, session: AgentSession, user: str) -> None:
    connection = Connection(user)
    broker = state.brokers.for_session(session.id)
    unsubscribe = session.subscribe(lambda event: connection.send(event.model_dump(mode="json")))
    writer = asyncio.create_task(_write(ws, connection))
    connection.send(
        {"type": "session", "session": session.info.model_dump(), "running": session.running}
    )
    broker.attach(connection)
    await state.show_stored_requests(session)
    try:
        while True:
            raw = await ws.receive_text()
            await _handle(state, session, connection, raw)
    except WebSocketDisconnect:
        pass
    finally:
        broker.detach(connection)
        unsubscribe()
        connection.close()
        with contextlib.suppress(Exception):
            await writer


async def _write(ws: WebSocket, connection: Connection) -> None:
    while (message := await connection.outbox.get()) is not None:
        try:
            await ws.send_json(message)
        except Exception:  # the socket is gone; the reader side cleans up
            return


async def _handle(state: WebApp, session: AgentSession, connection: Connection, raw: str) -> None:
    try:
        message: ClientMessage = parse_client_message(raw)
    except (ValidationError, ValueError) as exc:
        connection.send({"type": "error", "message": f"bad message: {exc}"})
        return
    if not state.limiter.allow(connection.user_id):
        connection.send({"type": "error", "message": "too many requests; slow down", "code": 429})
        return
    if message.type == "prompt":
        state.start_turn(session, message.text)
    elif message.type == "abort":
        session.abort()
    elif message.type == "approval":
        result = await state.assembly.pending.answer(message.id, connection.user_id, message.answer)
        connection.send(
            {
                "type": "approval_answer",
                "id": message.id,
                "result": result,
                "status": _ANSWER_STATUS[result],
            }
        )
    elif message.type == "command":
        await _command(state, session, connection, message.text)


async def _command(state: WebApp, session: AgentSession, connection: Connection, text: str) -> None:
    name, _, args = text.strip().partition(" ")
    if name == "/openloop":
        reply = await openloop_command(
            state.assembly.openloops,
            session.info.agent_id,
            connection.user_id,
            args,
            state.assembly.settings.language,
        )
        connection.send({"type": "command_result", "text": reply})
    elif name == "/stop":
        connection.send(
            {
                "type": "command_result",
                "text": "중단했습니다." if session.abort() else "실행 중인 턴이 없습니다.",
            }
        )
    else:
        connection.send(
            {
                "type": "command_result",
                "text": "명령: /stop (새 세션과 이어가기는 화면 위 세션 메뉴)",
            }
        )


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


def _static(name: str) -> str:
    return resources.files("jarvis.ui.web.static").joinpath(name).read_text(encoding="utf-8")
