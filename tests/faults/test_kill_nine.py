"""`kill -9` at seeded random points of a turn loop against a real `jarvis serve --demo` on the
files backend: after every restart, each turn the client saw end is stored whole, each prompt
whose turn started is stored, the files read back cleanly and the next turn works."""

from __future__ import annotations

import contextlib
import random
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jarvis.agent_layer.sessions import JsonlSessionStore
from tests.faults.conftest import JARVIS, jarvis_env, until_healthy
from tests.support.hang import HANG_GUARD_SEC
from tests.support.live_server import Tab, register_credentials
from tests.support.ports import free_port
from tests.support.processes import hud_headers

KILLS = 12
SEED = 20261203
ENDINGS = ("agent_end", "agent_error")


@contextlib.contextmanager
def demo_server(home: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = free_port()
    with (home / "serve.log").open("a", encoding="utf-8") as log:
        process = subprocess.Popen(
            [JARVIS, "serve", "--demo", "--port", str(port)],
            env=jarvis_env(home),
            cwd=home,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
    register_credentials(f"127.0.0.1:{port}", hud_headers())
    try:
        yield f"127.0.0.1:{port}", process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(HANG_GUARD_SEC)


async def run_until_killed(
    address: str, process: subprocess.Popen[str], session: str | None, kill_at: int, turn: int
) -> tuple[str, list[str], list[str]]:
    """Turns until `kill_at` events have arrived, then SIGKILL. Returns the session id, the
    prompts whose turn ended (agent_end seen) and those whose turn started (agent_start seen)."""
    tab = await Tab.open(f"ws://{address}/ws" + (f"?session={session}" if session else ""))
    session_id = (await tab.next("session"))["session"]["id"]
    ended: list[str] = []
    started: list[str] = []
    seen = 0
    while True:
        prompt = f"!echo kill{turn}" if turn % 3 == 2 else f"hello {turn}"
        await tab.send(type="prompt", text=prompt)
        while True:
            event: dict[str, Any] = await tab.next(
                ("agent_start", "approval_request", "message_update", *ENDINGS)
            )
            seen += 1
            if seen >= kill_at:
                process.send_signal(signal.SIGKILL)
                process.wait(HANG_GUARD_SEC)
                return session_id, ended, started
            if event["type"] == "agent_start":
                started.append(prompt)
            elif event["type"] == "approval_request":
                await tab.send(type="approval", id=event["id"], answer="allow")
            elif event["type"] in ENDINGS:
                assert event["type"] == "agent_end", event
                ended.append(prompt)
                turn += 1
                break


async def stored(home: Path, session: str) -> list[dict[str, Any]]:
    """The whole history, read from the files the way a restarted server reads them."""
    store = JsonlSessionStore(home / "sessions")
    return [entry.model_dump(mode="json") for entry in await store.history(session)]


@pytest.mark.timeout(1800)  # thirteen server starts: a hang guard for a machine under load
async def test_kill_nine_during_turns_loses_nothing_confirmed(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    session: str | None = None
    confirmed: list[str] = []
    asked: list[str] = []
    turn = 0
    for _ in range(KILLS):
        with demo_server(tmp_path) as (address, process):
            await until_healthy(f"http://{address}", process, tmp_path / "serve.log")
            session, ended, started = await run_until_killed(
                address, process, session, rng.randint(1, 120), turn
            )
        confirmed += ended
        asked += started
        turn += len(ended) + 1
    assert session is not None
    history = await stored(tmp_path, session)
    with demo_server(tmp_path) as (address, process):
        await until_healthy(f"http://{address}", process, tmp_path / "serve.log")
        turns: dict[int, dict[str, Any]] = {}
        for entry in history:
            roles = turns.setdefault(entry["turn"], {"prompt": None, "roles": []})
            roles["roles"].append(entry["message"]["role"])
            if entry["message"]["role"] == "user":
                roles["prompt"] = entry["message"]["content"]
        by_prompt = {t["prompt"]: t["roles"] for t in turns.values()}
        for prompt in asked:  # each started turn kept what was asked (stored before the loop)
            assert prompt in by_prompt, prompt
        for prompt in confirmed:  # each turn the client saw end is stored with its answer
            assert by_prompt[prompt][-1] == "assistant", (prompt, by_prompt[prompt])
        tab = await Tab.open(f"ws://{address}/ws?session={session}")
        await tab.next("session")
        await tab.send(type="prompt", text="after all the kills")
        assert (await tab.next(ENDINGS))["type"] == "agent_end"
