"""Episodes are written in batches off the turn path (docs/memory.md, `sqlite_store`): against
a real `jarvis serve --demo` on the files backend, a clean stop (SIGTERM) writes every episode,
and a `kill -9` loses at most the last pending batch — never a turn, never a batch half-way."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

from jarvis.agent_layer.sessions import JsonlSessionStore
from jarvis.memory.sqlite_store import FLUSH_BATCH
from tests.faults.conftest import until_healthy
from tests.faults.test_kill_nine import demo_server
from tests.support.hang import HANG_GUARD_SEC
from tests.support.live_server import Tab

TURNS = FLUSH_BATCH + 8  # more than one batch


async def run_turns(address: str, turns: int) -> str:
    tab = await Tab.open(f"ws://{address}/ws")
    session = str((await tab.next("session"))["session"]["id"])
    for turn in range(turns):
        await tab.send(type="prompt", text=f"hello {turn}")
        assert (await tab.next(("agent_end", "agent_error")))["type"] == "agent_end"
    await tab.close()
    return session


def episode_turns(home: Path, session: str) -> list[int]:
    with sqlite3.connect(home / "memory.db") as db:
        rows = db.execute(
            "SELECT turn FROM items WHERE kind = 'episode' AND session_id = ? ORDER BY seq",
            (session,),
        ).fetchall()
    return [turn for (turn,) in rows]


async def stored_turns(home: Path, session: str) -> set[int]:
    return {entry.turn for entry in await JsonlSessionStore(home / "sessions").history(session)}


async def test_a_clean_stop_writes_every_episode(tmp_path: Path) -> None:
    with demo_server(tmp_path) as (address, process):
        await until_healthy(f"http://{address}", process, tmp_path / "serve.log")
        session = await run_turns(address, TURNS)
        process.send_signal(signal.SIGTERM)
        process.wait(HANG_GUARD_SEC)  # uvicorn shuts down, then re-raises SIGTERM (-15)
    assert episode_turns(tmp_path, session) == list(range(1, TURNS + 1))


async def test_kill_nine_loses_at_most_the_pending_batch(tmp_path: Path) -> None:
    with demo_server(tmp_path) as (address, process):
        await until_healthy(f"http://{address}", process, tmp_path / "serve.log")
        session = await run_turns(address, TURNS)
        process.send_signal(signal.SIGKILL)
        process.wait(HANG_GUARD_SEC)
    kept = episode_turns(tmp_path, session)
    # Whole batches in order: turns 1..k, k >= TURNS - FLUSH_BATCH; every turn is in its file.
    assert kept == list(range(1, len(kept) + 1))
    assert len(kept) >= TURNS - FLUSH_BATCH
    assert await stored_turns(tmp_path, session) == set(range(1, TURNS + 1))
    with demo_server(tmp_path) as (address, process):  # the file opens and takes new episodes
        await until_healthy(f"http://{address}", process, tmp_path / "serve.log")
        again = await run_turns(address, 1)
        process.send_signal(signal.SIGTERM)
        process.wait(HANG_GUARD_SEC)  # uvicorn shuts down, then re-raises SIGTERM (-15)
    assert episode_turns(tmp_path, again) == [1]
