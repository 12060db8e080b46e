"""Getting into the HUD: the launch-token exchange, the API-key login, and the gate page.

`GET /?token=…` (the URL `jarvis serve` prints) sets the login cookie and redirects to `/`, so
the token leaves the address bar and browser history at once. With API keys configured the
page instead shows a small login form that POSTs the key to `/api/login`; the cookie then
names that key's user. Without a valid cookie `GET /` shows the gate page, never the HUD.
"""

from __future__ import annotations

import html
from importlib import resources
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from jarvis.common.i18n import Language, t
from jarvis.ui.web.auth import LOCAL_USER, server_port
from jarvis.ui.web.launch_token import TOKEN_PARAM, same_token
from jarvis.ui.web.page_language import page_language
from jarvis.ui.web.session_cookie import cookie_name

if TYPE_CHECKING:
    from jarvis.ui.web.web_app import WebApp

# Paths reachable without logging in (everything else needs the cookie or a header key).
PUBLIC_PATHS = {"/", "/api/health", "/api/login"}
PUBLIC_PREFIXES = ("/static/",)


class LoginRequest(BaseModel):
    key: str = Field(max_length=1000)


def register_access_routes(app: FastAPI, state: WebApp) -> None:
    @app.get("/", response_class=HTMLResponse)
    async def index(request: Request) -> Response:
        token = request.query_params.get(TOKEN_PARAM)
        if token is not None:
            return _exchange(state, request, token)
        lang = page_language(request.query_params, request.headers, state.lang)
        if state.auth.user_for(request) is None:
            how = "web.gate_login" if state.auth.enabled else "web.gate_open_url"
            return gate_page(state, t(how, lang), status=401, lang=lang)
        page = static_text("index.html").replace("{{LANG}}", state.lang)
        return HTMLResponse(page.replace("{{TZ}}", state.assembly.settings.timezone))

    @app.post("/api/login")
    async def login(body: LoginRequest, request: Request) -> Response:
        lang = page_language(request.query_params, request.headers, state.lang)
        if not state.auth.enabled:
            return JSONResponse({"detail": t("web.login_not_used", lang)}, status_code=404)
        client = request.client.host if request.client else "?"
        if not state.limiter.allow(f"login:{client}"):  # slows down guessing keys
            return JSONResponse({"detail": t("web.rate_limited", lang)}, status_code=429)
        user = state.auth.user_for_key(body.key)
        if user is None:
            return JSONResponse({"detail": t("web.login_failed", lang)}, status_code=401)
        response = JSONResponse({"user": user})
        set_login_cookie(state, request, response, user)
        return response

    @app.post("/api/logout")
    async def logout(request: Request) -> Response:
        response = JSONResponse({"ok": True})
        response.delete_cookie(cookie_name(server_port(request)), path="/")
        return response


def _exchange(state: WebApp, request: Request, token: str) -> Response:
    if state.auth.enabled:  # with API keys the login form decides; the token plays no part
        return _redirect_without_token(request)
    if not same_token(token, state.auth.launch_token):
        lang = page_language(request.query_params, request.headers, state.lang)
        return gate_page(state, t("web.gate_bad_token", lang), status=401, lang=lang)
    response = _redirect_without_token(request)
    set_login_cookie(state, request, response, LOCAL_USER)
    return response


def _redirect_without_token(request: Request) -> Response:
    rest = [(k, v) for k, v in request.query_params.multi_items() if k != TOKEN_PARAM]
    return RedirectResponse("/" + (f"?{urlencode(rest)}" if rest else ""), status_code=303)


def set_login_cookie(state: WebApp, request: Request, response: Response, user: str) -> None:
    response.set_cookie(
        cookie_name(server_port(request)),
        state.signer.issue(user),
        max_age=state.signer.max_age_sec,
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def gate_page(state: WebApp, message: str, status: int, lang: Language) -> HTMLResponse:
    """The page a browser without a login sees (in its language): what to do, and the key
    form when keys exist."""
    fields = {
        "LANG": lang,
        "MESSAGE": message,
        "LOGIN_HIDDEN": "" if state.auth.enabled else "hidden",
        "KEY_LABEL": t("web.login_key_label", lang),
        "LOGIN_BUTTON": t("web.login_button", lang),
        "LOGIN_FAILED": t("web.login_failed", lang),
    }
    page = static_text("gate.html")
    for name, value in fields.items():
        page = page.replace("{{" + name + "}}", html.escape(value))
    return HTMLResponse(page, status_code=status)


def static_text(name: str) -> str:
    return resources.files("jarvis.ui.web.static").joinpath(name).read_text(encoding="utf-8")
