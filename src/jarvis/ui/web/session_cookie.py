"""The HUD's login cookie: an opaque, HMAC-signed value that names a user, never a key.

The signing secret lives in `$JARVIS_HOME/web_secret` (mode 0600, created atomically), like
Jupyter's cookie secret: cookies survive restarts and every `--workers` process accepts the
cookies the others issued. Deleting the file logs every browser out.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
import time
from pathlib import Path

SECRET_FILE = "web_secret"
_SECRET_BYTES = 32
_VERSION = "v1"


def cookie_name(port: int) -> str:
    """Cookies ignore ports: two HUDs on two ports of one host must not overwrite each other."""
    return f"jarvis_hud_{port}"


def load_or_create_secret(home: Path) -> bytes:
    """Read the secret, or create it so that concurrent workers all end up with the same one."""
    path = home / SECRET_FILE
    with contextlib.suppress(FileNotFoundError):
        return _read_secret(path)
    home.mkdir(parents=True, exist_ok=True)
    temporary = home / f".{SECRET_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(secrets.token_hex(_SECRET_BYTES))
        # link() fails if another process won the race; then everyone reads the winner's file.
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return _read_secret(path)


def _read_secret(path: Path) -> bytes:
    text = path.read_text(encoding="ascii").strip()
    if len(text) < 2 * _SECRET_BYTES:
        raise ValueError(f"{path} is damaged (too short); delete it to log every browser out")
    return bytes.fromhex(text)


class CookieSigner:
    """`issue(user)` → cookie value; `user_of(value)` → the user, or None if forged or old."""

    def __init__(self, secret: bytes, max_age_sec: int) -> None:
        self._secret = secret
        self.max_age_sec = max_age_sec

    def issue(self, user: str, now: float | None = None) -> str:
        issued = int(time.time() if now is None else now)
        name = base64.urlsafe_b64encode(user.encode()).decode().rstrip("=")
        body = f"{_VERSION}.{secrets.token_urlsafe(18)}.{issued}.{name}"
        return f"{body}.{self._sign(body)}"

    def user_of(self, value: str | None, now: float | None = None) -> str | None:
        if not value or value.count(".") != 4:
            return None
        body, signature = value.rsplit(".", 1)
        if not hmac.compare_digest(signature, self._sign(body)):
            return None
        version, _nonce, issued, name = body.split(".")
        current = time.time() if now is None else now
        if version != _VERSION or not issued.isdigit():
            return None
        if not 0 <= current - int(issued) <= self.max_age_sec:
            return None
        try:
            return base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode()
        except ValueError:
            return None

    def _sign(self, body: str) -> str:
        digest = hmac.new(self._secret, body.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")
