"""Who is asking: the HUD's login cookie, or a header for programs; plus a per-user rate limit.

- Browsers (the HUD) carry only the opaque cookie from `session_cookie` (HttpOnly,
  SameSite=Strict). It names a user; with API keys that user must still have a key.
- Programs send `Authorization: Bearer <key>` or `X-API-Key: <key>` when API keys are
  configured (the key's name is the user id); without keys, `Authorization: Bearer <launch
  token>` lets a script act as the local user.
- Never from a URL query and never a raw key in a cookie: URLs end up in logs and history.
"""

from __future__ import annotations

import hmac
import time
from collections import defaultdict, deque

from fastapi import Request, WebSocket

from jarvis.core.config import ApiKey
from jarvis.ui.web.launch_token import same_token
from jarvis.ui.web.session_cookie import CookieSigner, cookie_name

LOCAL_USER = "local"


def server_port(conn: Request | WebSocket) -> int:
    """The port this server listens on (not the Host header's claim)."""
    server = conn.scope.get("server")
    if server and server[1]:
        return int(server[1])
    return conn.url.port or 0


class Authenticator:
    def __init__(self, keys: list[ApiKey], signer: CookieSigner, launch_token: str) -> None:
        self._keys = [(k.name, k.key.get_secret_value()) for k in keys]
        self.signer = signer
        self.launch_token = launch_token

    @property
    def enabled(self) -> bool:
        """True when API keys are configured (the HUD then asks for one to log in)."""
        return bool(self._keys)

    def user_for_key(self, presented: str | None) -> str | None:
        if not presented:
            return None
        for name, key in self._keys:
            if hmac.compare_digest(presented.encode(), key.encode()):
                return name
        return None

    def user_for(self, conn: Request | WebSocket) -> str | None:
        """The user behind a request, or None: a header decides when present, else the cookie."""
        header = _header_credential(conn)
        if header is not None:
            if self.enabled:
                return self.user_for_key(header)
            return LOCAL_USER if same_token(header, self.launch_token) else None
        user = self.signer.user_of(conn.cookies.get(cookie_name(server_port(conn))))
        return user if user is not None and self._still_valid(user) else None

    def _still_valid(self, user: str) -> bool:
        """A cookie outlives config changes: its user must still exist in the current mode."""
        if self.enabled:
            return any(name == user for name, _ in self._keys)
        return user == LOCAL_USER


def _header_credential(conn: Request | WebSocket) -> str | None:
    header = conn.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return conn.headers.get("x-api-key")


class RateLimiter:
    """A sliding one-minute window per user."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._hits: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, user: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        hits = self._hits[user]
        while hits and hits[0] <= now - 60:
            hits.popleft()
        if len(hits) >= self.per_minute:
            return False
        hits.append(now)
        return True
