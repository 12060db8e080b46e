"""API keys (the key's name is the user id) and a per-user request rate limit."""

from __future__ import annotations

import hmac
import time
from collections import defaultdict, deque

from fastapi import HTTPException, Request, WebSocket

from jarvis.core.config import ApiKey

LOCAL_USER = "local"
KEY_COOKIE = "jarvis_key"


class Authenticator:
    def __init__(self, keys: list[ApiKey]) -> None:
        self._keys = [(k.name, k.key.get_secret_value()) for k in keys]

    @property
    def enabled(self) -> bool:
        return bool(self._keys)

    def user_for(self, presented: str | None) -> str | None:
        if not self._keys:
            return LOCAL_USER
        if not presented:
            return None
        for name, key in self._keys:
            if hmac.compare_digest(presented.encode(), key.encode()):
                return name
        return None

    def presented(self, conn: Request | WebSocket) -> str | None:
        header = conn.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            return header[7:].strip()
        return (
            conn.headers.get("x-api-key")
            or conn.query_params.get("key")
            or conn.cookies.get(KEY_COOKIE)
        )

    def require(self, conn: Request | WebSocket) -> str:
        user = self.user_for(self.presented(conn))
        if user is None:
            raise HTTPException(
                status_code=401,
                detail="API 키가 없거나 틀렸습니다. Authorization: Bearer <키> 헤더나 ?key=<키> 로 "
                "보내 주세요 (JARVIS_SECURITY__API_KEYS). / Missing or wrong API key.",
            )
        return user


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
