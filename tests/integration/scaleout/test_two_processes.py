"""Two real `jarvis serve` processes on one PostgreSQL: an approval crosses between them."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg
import pytest
from ruamel.yaml import YAML

from tests.support.live_server import Tab
from tests.support.postgres import postgres_dsn

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def dsn() -> AsyncIterator[str]:
    async for value in postgres_dsn():
        yield value


@contextmanager
def serve(
    home: Path, dsn: str, script: list[object]
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    home.mkdir(parents=True, exist_ok=True)
    YAML(typ="safe").dump(script, (home / "script.yaml").open("w", encoding="utf-8"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    env.update(
        JARVIS_HOME=str(home),
        JARVIS_WORKSPACE=str(home),
        JARVIS_STORAGE__BACKEND="postgres",
        JARVIS_STORAGE__POSTGRES_DSN=dsn,
        JARVIS_MODEL__PROVIDER="faux",
        JARVIS_MODEL__SCRIPT=str(home / "script.yaml"),
        JARVIS_OPENLOOP__ENABLED="false",
    )
    log = (home / "serve.log").open("a", encoding="utf-8")  # a file: a pipe nobody reads fills up
    process = subprocess.Popen(
        [JARVIS, "serve", "--port", str(port)],
        env=env,
        text=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield f"127.0.0.1:{port}", process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        log.close()


async def healthy(address: str) -> None:
    async with httpx.AsyncClient() as http, asyncio.timeout(30):
        while True:
            try:
                if (await http.get(f"http://{address}/api/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)


def bash(command: str) -> dict[str, object]:
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


async def test_a_turn_in_a_asks_a_tab_on_b_and_the_answer_to_b_unblocks_a(
    tmp_path: Path, dsn: str
) -> None:
    with (
        serve(tmp_path / "a", dsn, [bash("echo across-processes"), "done"]) as (a, _),
        serve(tmp_path / "b", dsn, ["unused"]) as (b, _),
    ):
        await asyncio.gather(healthy(a), healthy(b))
        tab_a = await Tab.open(f"ws://{a}/ws")
        session = (await tab_a.next("session"))["session"]["id"]
        tab_b = await Tab.open(f"ws://{b}/ws?session={session}")
        await tab_b.next("session")
        await tab_a.send(type="prompt", text="run it")
        request = await tab_b.next("approval_request")
        assert request["tool"] == "bash" and request["session_id"] == session
        async with httpx.AsyncClient() as http:
            answered = await http.post(
                f"http://{b}/api/approvals/{request['id']}", json={"answer": "allow"}
            )
            assert answered.status_code == 200
            late = await http.post(
                f"http://{a}/api/approvals/{request['id']}", json={"answer": "deny"}
            )
            assert late.status_code == 409
        end = await tab_a.next("tool_execution_end")
        assert not end["is_error"] and "across-processes" in end["result_preview"]
        assert (await tab_b.next("approval_resolved"))["status"] == "allow"
        assert (await tab_a.next("agent_end"))["ended_by"] == "answer"
        await tab_a.close()
        await tab_b.close()


async def test_a_process_killed_while_waiting_leaves_nothing_pending(
    tmp_path: Path, dsn: str
) -> None:
    home = tmp_path / "a"
    with serve(home, dsn, [bash("make deploy")]) as (a, process):
        await healthy(a)
        tab = await Tab.open(f"ws://{a}/ws")
        session = (await tab.next("session"))["session"]["id"]
        await tab.send(type="prompt", text="deploy it")
        request = await tab.next("approval_request")
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        row = await (
            await conn.execute(
                "SELECT status FROM jarvis_pending_approvals WHERE id = %s", (request["id"],)
            )
        ).fetchone()
        assert row == ("pending",)
    with serve(home, dsn, ["after restart"]) as (again, _):
        await healthy(again)
        async with await psycopg.AsyncConnection.connect(dsn) as conn:
            row = await (
                await conn.execute(
                    "SELECT status FROM jarvis_pending_approvals WHERE id = %s", (request["id"],)
                )
            ).fetchone()
        assert row == ("timeout",)
        async with httpx.AsyncClient() as http:
            history = (await http.get(f"http://{again}/api/sessions/{session}/history")).json()
        assert [e["message"]["content"] for e in history] == []  # the turn never finished
        sessions = (await httpx.AsyncClient().get(f"http://{again}/api/sessions")).json()
        assert [s["id"] for s in sessions] == [session]
