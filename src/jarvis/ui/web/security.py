"""The web boundary as ASGI middleware: Host, Origin, body size and security headers.

Order (outermost first): `SecurityHeaders` → Starlette's `TrustedHostMiddleware` (DNS
rebinding: a hostile name resolving to 127.0.0.1 still sends its own Host) → `OriginGuard`
(cross-site WebSocket hijacking and cross-site POSTs; SameSite cookies do not separate the
ports of one host, Origin does) → `BodyLimit` → the app. Each refuses before the app runs, so a
refused request never creates a session or starts a turn.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders, QueryParams
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jarvis.common.i18n import Language, t
from jarvis.ui.web.page_language import page_language

MAX_BODY_BYTES = 1_000_000
# A too-large body is read (and dropped) up to this much so the client sees the 413 rather
# than a reset connection; past it the connection is closed after the 413.
_DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES
_STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
_LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
_ANY_ADDRESS = {"0.0.0.0", "::", ""}

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
    "object-src 'none'"
)
_PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


def allowed_hosts(bind_host: str, extra: list[str]) -> list[str]:
    """Host names this server answers to (as the Host header spells them)."""
    hosts = list(_LOOPBACK_HOSTS)
    if bind_host not in _ANY_ADDRESS:
        hosts.append(f"[{bind_host}]" if ":" in bind_host else bind_host)
    hosts += [f"[{h}]" if ":" in h and not h.startswith("[") else h for h in extra]
    return sorted({h.lower() for h in hosts})


class SecurityHeaders:
    """CSP, nosniff, no framing, no referrer on every response; API answers are never cached."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _PAGE_HEADERS.items():
                    headers[name] = value
                if is_api:
                    headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_with_headers)


class OriginGuard:
    """Only the HUD's own origin (plus an allow-list) may open a WebSocket or change state.

    A request without an Origin header comes from a program, not a page: its credentials alone
    decide (browsers always send Origin on WebSocket handshakes and on POSTs).
    """

    def __init__(self, app: ASGIApp, hosts: list[str], origins: list[str], lang: Language) -> None:
        self.app = app
        self.hosts = set(hosts)
        self.origins = {o.rstrip("/").lower() for o in origins}
        self.lang = lang

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope["type"] == "websocket" or (
            scope["type"] == "http" and scope.get("method") in _STATE_CHANGING
        )
        origin = Headers(scope=scope).get("origin") if checked else None
        if origin is not None and not self.allows(origin, scope):
            lang = asked(scope, self.lang)
            detail = t("web.origin_refused", lang, origin=origin[:200])
            await JSONResponse({"detail": detail}, status_code=403)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def allows(self, origin: str, scope: Scope) -> bool:
        if origin.rstrip("/").lower() in self.origins:
            return True
        try:
            parts = urlsplit(origin)
            port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False
        host = parts.hostname.lower()
        host = f"[{host}]" if ":" in host else host
        server = scope.get("server")
        return host in self.hosts and server is not None and port == server[1]


class BodyLimit:
    """Counts body bytes as they arrive, so a chunked body without Content-Length is capped too."""

    def __init__(self, app: ASGIApp, lang: Language, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.lang = lang
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left; let the app see it
                await self.app(scope, _replay([message], receive), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await self._drain(receive, size, message)
                await self._refuse(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)

    async def _drain(self, receive: Receive, size: int, message: Message) -> None:
        while message.get("more_body", False) and size <= _DRAIN_LIMIT_BYTES:
            message = await receive()
            if message["type"] != "http.request":
                return
            size += len(message.get("body", b""))

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = t("web.body_too_large", asked(scope, self.lang), limit=self.limit)
        await JSONResponse({"detail": detail}, status_code=413)(scope, receive, send)


def asked(scope: Scope, default: Language) -> Language:
    """The language of the page that sent this request: `?lang=` (the HUD's WebSocket), else
    its Accept-Language (the HUD's requests send the page's), else the server's."""
    query = QueryParams(scope.get("query_string", b"").decode("latin-1"))
    return page_language(query, Headers(scope=scope), default)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    async def replayed() -> Message:
        return messages.pop(0) if messages else await receive()

    return replayed
