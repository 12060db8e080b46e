"""A real Jarvis server (uvicorn + the real assembly) on a free port, in a background thread."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
import websockets
from ruamel.yaml import YAML

from jarvis.app.infra import AppAssembly, build_app
from jarvis.app.settings import Settings
from jarvis.ui.web.server import create_app


class LiveServer:
    def __init__(self, assembly: AppAssembly) -> None:
        self.assembly = assembly
        config = uvicorn.Config(
            create_app(assembly), host="127.0.0.1", port=0, log_level="warning", lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.port = 0

    def start(self) -> None:
        self.thread.start()
        while not self.server.started:
            threading.Event().wait(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(5)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, session: str | None = None, key: str | None = None) -> str:
        query = "&".join(f"{k}={v}" for k, v in (("session", session), ("key", key)) if v)
        return f"ws://127.0.0.1:{self.port}/ws?{query}"


def write_script(path: Path, responses: list[Any]) -> Path:
    YAML(typ="safe").dump(responses, path.open("w", encoding="utf-8"))
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
    config = Settings(home=home, workspace=home, model=model, **settings)
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
    async def open(cls, url: str) -> Tab:
        return cls(await websockets.connect(url))

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def next(self, event_type: str, timeout: float = 10) -> dict[str, Any]:
        """The next event of this type (earlier unread ones first)."""
        for index, event in enumerate(self.events):
            if event["type"] == event_type:
                return self.events.pop(index)
        async with asyncio.timeout(timeout):
            while True:
                event = json.loads(await self.ws.recv())
                if event["type"] == event_type:
                    return event
                self.events.append(event)

    async def drain_until(self, event_type: str, timeout: float = 10) -> list[dict[str, Any]]:
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
