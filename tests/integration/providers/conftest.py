"""A real HTTP server (Starlette under uvicorn on 127.0.0.1) that replays vendor responses.

Streams go out with chunked transfer encoding, one HTTP chunk per SSE frame, as the vendors send
them. Every request is recorded so tests can check what the provider put on the wire.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from jarvis.model_layer import ModelSettings
from jarvis.model_layer.providers.openai_provider import OpenAIProvider


class _BrokenStream(Exception):
    """Raised inside a streaming body: uvicorn drops the connection before the last chunk."""


@dataclass
class Reply:
    status: int = 200
    chunks: list[bytes] = field(default_factory=list)
    content_type: str = "text/event-stream"
    headers: dict[str, str] = field(default_factory=dict)
    # Close the connection after `chunks`, without ending the chunked body.
    break_after: bool = False
    # Wait this long before answering at all (request timeouts, cancellation).
    delay_sec: float = 0.0


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class ReplayServer:
    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.received: list[Received] = []
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def add(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    async def handle(self, request: Request) -> Response:
        self.received.append(
            Received(request.url.path, dict(request.headers), json.loads(await request.body()))
        )
        if not self.replies:
            return Response(b'{"error": {"message": "script exhausted"}}', status_code=500)
        reply = self.replies.pop(0)
        await asyncio.sleep(reply.delay_sec)
        if reply.content_type != "text/event-stream":
            body = b"".join(reply.chunks)
            return Response(body, reply.status, reply.headers, media_type=reply.content_type)
        return StreamingResponse(
            _body(reply), reply.status, reply.headers, media_type=reply.content_type
        )


async def _body(reply: Reply) -> AsyncIterator[bytes]:
    for chunk in reply.chunks:
        yield chunk
        await asyncio.sleep(0.001)  # separate writes, so the client really reads in pieces
    if reply.break_after:
        raise _BrokenStream


def sse(*events: dict[str, Any] | str, named: bool = False) -> list[bytes]:
    """One SSE frame per event; a str goes out raw (`[DONE]`). `named` adds `event:` lines."""
    frames = []
    for event in events:
        data = event if isinstance(event, str) else json.dumps(event)
        prefix = f"event: {event['type']}\n" if named and isinstance(event, dict) else ""
        frames.append(f"{prefix}data: {data}\n\n".encode())
    return frames


def json_reply(status: int, data: dict[str, Any], **headers: str) -> Reply:
    return Reply(status, [json.dumps(data).encode()], "application/json", headers)


@pytest.fixture(scope="session")
def _replay() -> Iterator[ReplayServer]:
    # One server for the session, in its own thread: uvicorn's shutdown alone takes ~0.15 s.
    replay = ReplayServer()
    app = Starlette(routes=[Route("/{path:path}", replay.handle, methods=["POST"])])
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="critical", lifespan="off")
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    while not runner.started:
        if not thread.is_alive():
            raise RuntimeError("the replay server did not start")
        time.sleep(0.01)
    replay.port = runner.servers[0].sockets[0].getsockname()[1]
    yield replay
    runner.should_exit = runner.force_exit = True  # no wait for handlers still sleeping
    thread.join(5)


@pytest.fixture
def server(_replay: ReplayServer) -> ReplayServer:
    _replay.replies.clear()
    _replay.received.clear()
    return _replay


Make = Callable[..., OpenAIProvider]


@pytest.fixture
async def make(server: ReplayServer) -> AsyncIterator[Make]:
    """Providers pointed at the replay server; no retries and a tiny backoff unless asked."""
    made: list[OpenAIProvider] = []

    def build(base_url: str | None = None, **settings: Any) -> OpenAIProvider:
        settings.setdefault("max_retries", 0)
        language = settings.pop("language", "ko")
        model = ModelSettings(base_url=base_url or f"{server.url}/v1", model="m", **settings)
        made.append(OpenAIProvider(model, language=language, retry_delay_sec=0.001))
        return made[-1]

    yield build
    for provider in made:
        await provider.aclose()
