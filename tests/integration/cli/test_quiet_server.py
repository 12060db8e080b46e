"""`jarvis serve`'s uvicorn server without its tick: an idle server sleeps until it is asked
to stop (a signal, or `should_exit` set by code), and every response still carries the Date
of its second."""

from __future__ import annotations

import asyncio
import signal
import threading
from email.utils import formatdate
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest
import uvicorn

from jarvis.ui.cli.quiet_server import LazyDateState, QuietServer
from tests.integration.cli.test_settings_errors import JARVIS
from tests.support.hang import HANG_GUARD_SEC
from tests.support.ports import free_port
from tests.support.processes import lines_until, printing


async def hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hi"})


def test_the_date_header_is_made_when_read_in_a_new_second() -> None:
    now = [1_000.2]
    config = SimpleNamespace(date_header=True, encoded_headers=[(b"server", b"uvicorn")])
    state = LazyDateState(cast(uvicorn.Config, config), clock=lambda: now[0])
    first = state.default_headers
    assert first == [(b"date", formatdate(1_000.2, usegmt=True).encode()), (b"server", b"uvicorn")]
    now[0] = 1_000.9
    assert state.default_headers is first  # the same second: made once
    now[0] = 1_001.0
    assert state.default_headers[0] == (b"date", formatdate(1_001.0, usegmt=True).encode())
    state.default_headers = []  # what uvicorn's tick would assign changes nothing
    assert state.default_headers[0][0] == b"date"


def test_no_date_header_when_switched_off() -> None:
    config = SimpleNamespace(date_header=False, encoded_headers=[])
    assert LazyDateState(cast(uvicorn.Config, config)).default_headers == []


async def test_the_server_answers_without_ticking_and_stops_when_asked() -> None:
    port = free_port()
    config = uvicorn.Config(hello, host="127.0.0.1", port=port, lifespan="off", log_level="error")
    server = QuietServer(config)
    ticks = 0

    async def on_tick(counter: int) -> bool:
        nonlocal ticks
        ticks += 1
        return False

    server.on_tick = on_tick  # type: ignore[method-assign]
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    async with httpx.AsyncClient() as client:
        reply = await client.get(f"http://127.0.0.1:{port}/")
    assert reply.text == "hi" and "date" in reply.headers
    # asked from another thread, as a signal handler or a supervisor would
    threading.Thread(target=setattr, args=(server, "should_exit", True)).start()
    await serving
    assert ticks == 0  # uvicorn's own loop calls on_tick at once and every 0.1 s


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_idle_serve_stops_on_a_signal(tmp_path: Path, sig: signal.Signals) -> None:
    port = free_port()
    env = {"JARVIS_HOME": str(tmp_path), "JARVIS_WORKSPACE": str(tmp_path), "PATH": "/usr/bin:/bin"}
    process = printing([JARVIS, "serve", "--demo", "--port", str(port)], env, tmp_path)
    try:
        lines_until(process, "token=")
        assert (
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=HANG_GUARD_SEC).status_code
            == 200
        )
        process.send_signal(sig)
        # uvicorn raises the signal again once it has shut down (Ctrl-C ends as an interrupt)
        code = process.wait(
            HANG_GUARD_SEC
        )  # a hang guard: the loop sleeps until the signal wakes it
        assert code == (0 if sig == signal.SIGINT else -sig)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(HANG_GUARD_SEC)
