"""The per-launch token: printed by `jarvis serve`, exchanged once per browser for a cookie.

Like Jupyter's token: random for every `jarvis serve` unless `JARVIS_WEB__TOKEN` fixes it
(for scripts). It reaches `--workers` processes through that same environment variable, and
each process removes it from its own environment once read, so tools it runs (bash) cannot
read it. It is valid for the whole launch (several browsers may open the printed URL); it is
never a credential for the API or the WebSocket except as `Authorization: Bearer` from
scripts when no API keys are configured.
"""

from __future__ import annotations

import hmac
import os
import secrets

from jarvis.app.settings import Settings

LAUNCH_TOKEN_ENV = "JARVIS_WEB__TOKEN"
TOKEN_PARAM = "token"
_ANY_ADDRESS = {"0.0.0.0", "::", ""}


def new_launch_token() -> str:
    return secrets.token_urlsafe(32)


def launch_token_for(settings: Settings) -> str:
    """The configured token, else a fresh one (an app built outside `jarvis serve`)."""
    configured = settings.web.token
    return configured.get_secret_value() if configured else new_launch_token()


def forget_launch_token_env() -> None:
    """Drop the token from this process's environment so child processes never inherit it."""
    os.environ.pop(LAUNCH_TOKEN_ENV, None)


def same_token(presented: str | None, expected: str) -> bool:
    return bool(presented) and hmac.compare_digest(str(presented).encode(), expected.encode())


def browser_host(bind_host: str) -> str:
    """The host a browser on this machine should use for a bind address."""
    if bind_host in _ANY_ADDRESS:
        return "127.0.0.1"
    return f"[{bind_host}]" if ":" in bind_host else bind_host


def launch_url(bind_host: str, port: int, token: str | None) -> str:
    base = f"http://{browser_host(bind_host)}:{port}/"
    return f"{base}?{TOKEN_PARAM}={token}" if token else base
