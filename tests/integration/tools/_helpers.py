"""Shared by the built-in tool tests: a tool environment and a real local web site."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.core.tools.base import Tool, ToolEnv
from tests.support.ports import free_port

PAGE = (
    "<html><head><title>Jarvis</title><script>var secret = 1;</script></head><body>"
    "<nav><a href='/'>Home</a> <a href='/about'>About</a></nav><article><h1>Jarvis</h1>"
    + "<p>Jarvis keeps a human in charge of every risky action it takes for you.</p>" * 6
    + "</article><footer>© footer</footer></body></html>"
)
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 96


def tool_env(workspace: Path, abort: asyncio.Event | None = None) -> ToolEnv:
    context = ToolCallContext(
        session_id="s", agent_id="main", turn=1, abort=abort or asyncio.Event()
    )
    return ToolEnv(workspace=workspace, call=context)


async def run(tool: Tool, workspace: Path, **args: Any) -> ToolResult:
    return await tool.execute("call-1", args, tool_env(workspace))


def alive(pid: int) -> bool:
    """Running, not a zombie (PID 1 here does not reap orphans)."""
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        return False


class Site:
    """What the local site saw: request headers and query strings by path."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.requests: list[Request] = []


def _routes(site: Site) -> list[Route]:
    async def record(request: Request) -> None:
        site.requests.append(request)

    async def page(request: Request) -> Response:
        return Response(PAGE, media_type="text/html; charset=utf-8")

    async def plain(request: Request) -> Response:
        return Response("line one\nline two\n", media_type="text/plain")

    async def data(request: Request) -> Response:
        return Response(b'{"name":"Jarvis","tools":["bash"]}', media_type="application/json")

    async def image(request: Request) -> Response:
        return Response(PNG, media_type="image/png")

    async def untyped(request: Request) -> Response:
        response = Response(b"<!DOCTYPE html><html><body><p>no type given</p></body></html>")
        del response.headers["content-type"]
        return response

    async def endless(request: Request) -> StreamingResponse:
        async def chunks() -> AsyncIterator[bytes]:
            for _ in range(10_000):  # 640 MB if nobody stops reading
                yield b"z" * 65_536

        return StreamingResponse(chunks(), media_type="text/plain")

    async def slow(request: Request) -> Response:
        await asyncio.sleep(3600)  # longer than pytest's timeout: only a cut ends the wait
        return Response("late", media_type="text/plain")

    async def missing(request: Request) -> Response:
        return Response("gone", status_code=404, media_type="text/plain")

    async def moved(request: Request) -> Response:
        return RedirectResponse("/plain")

    async def brave(request: Request) -> Response:
        await record(request)
        rows = [
            {
                "title": "Jarvis &amp; friends",
                "url": "https://j.example/",
                "description": "an <strong>open</strong> assistant",
            },
            {"title": "Second", "url": "https://two.example/", "description": "more"},
        ]
        return JSONResponse({"web": {"results": rows}})

    async def brave_limited(request: Request) -> Response:
        return JSONResponse({"error": "rate limited"}, status_code=429)

    async def brave_garbage(request: Request) -> Response:
        return Response("<html>not json</html>", media_type="text/html")

    async def redirect(request: Request) -> Response:
        await record(request)
        return RedirectResponse(request.query_params["to"])

    async def host(request: Request) -> Response:
        await record(request)
        return Response(request.headers.get("host", ""), media_type="text/plain")

    handlers = {
        "/page": page,
        "/plain": plain,
        "/data": data,
        "/image.png": image,
        "/untyped": untyped,
        "/endless": endless,
        "/slow": slow,
        "/missing": missing,
        "/moved": moved,
        "/search": brave,
        "/search-limited": brave_limited,
        "/search-garbage": brave_garbage,
        "/redirect": redirect,
        "/host": host,
    }
    return [Route(path, handler) for path, handler in handlers.items()]


@contextmanager
def local_site() -> Iterator[Site]:
    """A real HTTP server on 127.0.0.1 with a free port, in a thread."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    site = Site(f"http://127.0.0.1:{sock.getsockname()[1]}")
    app = Starlette(routes=_routes(site))
    # Requests still sleeping in /slow must not hold up the shutdown.
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=0.2)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:  # pytest's timeout guards a server that never starts
        assert thread.is_alive(), "the test site's server ended before it started"
        time.sleep(0.01)
    try:
        yield site
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def closed_port_url() -> str:
    """A URL nothing listens on."""
    return f"http://127.0.0.1:{free_port()}/"
