"""A real Jarvis server (uvicorn + the real assembly) on a free port, in a background thread.

Tests reach it the way the HUD does: `LiveServer.start()` opens the launch URL
(`/?token=…`), keeps the login cookie it gets, and `Tab.open(url)` sends that cookie and the
HUD's own Origin on the WebSocket handshake. `server.headers` does the same for httpx.
Servers started elsewhere (`jarvis serve` processes) are made known with `register_credentials`.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx
import uvicorn
import websockets

from jarvis.app.infra import AppAssembly, build_app
from jarvis.app.settings import Settings
from jarvis.ui.web.server import SHUTDOWN_GRACE_SEC, create_app
from jarvis.ui.web.session_cookie import cookie_name
from tests.support.hang import HANG_GUARD_SEC

# host:port → the headers a logged-in client of that server sends.
_CREDENTIALS: dict[str, dict[str, str]] = {}


def register_credentials(address: str, headers: Mapping[str, str]) -> None:
    """Let `Tab.open` authenticate to the server at `host:port` with these headers."""
    _CREDENTIALS[address] = dict(headers)


def credentials_for(address: str) -> dict[str, str]:
    return dict(_CREDENTIALS.get(address, {}))


def exchange_launch_token(base_url: str, token: str) -> str | None:
    """Open the printed launch URL like a browser: the cookie value it sets, or None."""
    port = urlsplit(base_url).port or 80
    response = httpx.get(f"{base_url}/", params={"token": token}, follow_redirects=False)
    return response.cookies.get(cookie_name(port))


class LiveServer:
    def __init__(self, assembly: AppAssembly) -> None:
        self.assembly = assembly
        token = assembly.settings.web.token
        assert token is not None, "live_server sets a launch token"
        self.token = token.get_secret_value()
        config = uvicorn.Config(
            create_app(assembly),
            host="127.0.0.1",
            port=0,
            log_level="warning",
            lifespan="on",
            ws_max_size=1_000_000,
            ws_per_message_deflate=False,
            loop="asyncio",  # as `jarvis serve` runs (see ui/cli/main.py)
            timeout_graceful_shutdown=SHUTDOWN_GRACE_SEC,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.port = 0
        self.cookie: str | None = None

    def start(self) -> None:
        self.thread.start()
        while not self.server.started:
            threading.Event().wait(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        self.cookie = exchange_launch_token(self.url, self.token)
        register_credentials(self.address, self.headers)

    def stop(self) -> None:
        _CREDENTIALS.pop(self.address, None)
        self.server.should_exit = True
        # Until it has stopped (lifespan shutdown included): the unattended engine is one per
        # process, and the next test's server must find it released. pytest-timeout guards a hang.
        self.thread.join()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.address}"

    @property
    def cookie_name(self) -> str:
        return cookie_name(self.port)

    @property
    def headers(self) -> dict[str, str]:
        """What the logged-in HUD sends: its cookie (when it has one) and its own Origin."""
        headers = {"Origin": self.url}
        if self.cookie:
            headers["Cookie"] = f"{self.cookie_name}={self.cookie}"
        return headers

    def launch_url(self, **params: str) -> str:
        """The URL `jarvis serve` prints (plus extra query parameters such as `session`)."""
        return f"{self.url}/?{urlencode({'token': self.token, **params})}"

    def ws_url(self, session: str | None = None) -> str:
        return f"ws://{self.address}/ws" + (f"?session={session}" if session else "")


def write_script(path: Path, responses: list[Any]) -> Path:
    # JSON is YAML too, and keeps long runs of spaces that a YAML dump would fold on reload.
    path.write_text(json.dumps(responses), encoding="utf-8")
    return path


@contextmanager
def live_server(
    home: Path, script: list[Any], judge: list[Any] | None = None, **settings: Any
) -> Iterator[LiveServer]:
    """`script` answers the main model; `judge`, when given, the AGENDA judge (else it is off)."""
    script_path = write_script(home / "script.yaml", script)
    model = {"provider": "faux", "model": "faux", "script": str(script_path)}
    if judge is None:
        settings.setdefault("openloop", {"enabled": False})
    else:
        judge_path = write_script(home / "judge.yaml", judge)
        settings.setdefault(
            "openloop", {"model": {"provider": "faux", "model": "judge", "script": str(judge_path)}}
        )
    with serving(quiet_settings(home, model, **settings)) as server:
        yield server


def quiet_settings(home: Path, model: dict[str, Any], **settings: Any) -> Settings:
    """Settings for a test server with a launch token; work that starts on its own is off
    unless a test asks for it: the durable engine (its start costs seconds on a busy machine)
    and idle-time learning (a model call that would take the next line of a scripted model)."""
    settings.setdefault("scheduler", {"enabled": False})
    settings.setdefault("procedures", {"learn": False, "reflect": False})
    web = dict(settings.pop("web", {}))
    web.setdefault("token", secrets.token_urlsafe(16))
    return Settings(home=home, workspace=home, model=model, web=web, **settings)


@contextmanager
def serving(config: Settings) -> Iterator[LiveServer]:
    """A live server of these settings (which set `web.token`), stopped at the end."""
    server = LiveServer(build_app(config))
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Tab:
    """A WebSocket client like a HUD tab: collects every event it receives."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, url: str, headers: Mapping[str, str] | None = None) -> Tab:
        """Connect like a HUD tab: with the server's registered credentials unless `headers`."""
        sent = credentials_for(urlsplit(url).netloc) if headers is None else dict(headers)
        return cls(await websockets.connect(url, additional_headers=sent))

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def next(
        self, event_type: str | tuple[str, ...], timeout: float = HANG_GUARD_SEC
    ) -> dict[str, Any]:
        """The next event of this type, or of any of these types (earlier unread ones first)."""
        wanted = (event_type,) if isinstance(event_type, str) else event_type
        for index, event in enumerate(self.events):
            if event["type"] in wanted:
                return self.events.pop(index)
        async with asyncio.timeout(timeout):
            while True:
                event = json.loads(await self.ws.recv())
                if event["type"] in wanted:
                    return event
                self.events.append(event)

    async def closed(self, timeout: float = HANG_GUARD_SEC) -> tuple[int | None, str | None]:
        """Wait until the server closes the socket: its close code and reason."""
        async with asyncio.timeout(timeout):
            await self.ws.wait_closed()
        return self.ws.close_code, self.ws.close_reason

    async def drain_until(
        self, event_type: str, timeout: float = HANG_GUARD_SEC
    ) -> list[dict[str, Any]]:
        """Everything up to and including the next event of this type."""
        seen: list[dict[str, Any]] = list(self.events)
        self.events.clear()
        for index, event in enumerate(seen):
            if event["type"] == event_type:
                self.events = seen[index + 1 :]
                return seen[: index + 1]
        async with asyncio.timeout(timeout):
            while True:
                event = json.loads(await self.ws.recv())
                seen.append(event)
                if event["type"] == event_type:
                    return seen

    async def close(self) -> None:
        await self.ws.close()
