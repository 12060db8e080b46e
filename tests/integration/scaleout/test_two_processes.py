"""Two real `jarvis serve` processes on one PostgreSQL: an approval crosses between them."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from unittest.mock import ANY

import httpx
import psycopg

from tests.support.hang import HANG_GUARD_SEC
from tests.support.live_server import Tab
from tests.support.processes import bash, healthy, hud_headers, serve


async def status_of(dsn: str, item_id: str) -> tuple[object, ...] | None:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        cursor = await conn.execute(
            "SELECT status FROM jarvis_pending_approvals WHERE id = %s", (item_id,)
        )
        return await cursor.fetchone()


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
        async with httpx.AsyncClient(headers=hud_headers()) as http:
            answered = await http.post(
                f"http://{b}/api/approvals/{request['id']}",
                json={"answer": "allow", "session_id": request["session_id"]},
            )
            assert answered.status_code == 200
            late = await http.post(
                f"http://{a}/api/approvals/{request['id']}",
                json={"answer": "deny", "session_id": request["session_id"]},
            )
            assert late.status_code == 409
        end = await tab_a.next("tool_execution_end")
        assert not end["is_error"] and "across-processes" in end["result_preview"]
        assert (await tab_b.next("approval_resolved"))["status"] == "allow"
        assert (await tab_a.next("agent_end"))["ended_by"] == "answer"
        await tab_a.close()
        await tab_b.close()


async def test_a_process_killed_while_waiting_keeps_the_history_and_leaves_nothing_pending(
    tmp_path: Path, dsn: str
) -> None:
    home = tmp_path / "a"
    with serve(home, dsn, ["first answer", bash("make deploy")]) as (a, process):
        await healthy(a)
        tab = await Tab.open(f"ws://{a}/ws")
        session = (await tab.next("session"))["session"]["id"]
        await tab.send(type="prompt", text="hello")
        assert (await tab.next("agent_end"))["ended_by"] == "answer"
        await tab.send(type="prompt", text="deploy it")
        request = await tab.next("approval_request")
        process.send_signal(signal.SIGKILL)
        process.wait(HANG_GUARD_SEC)
    assert await status_of(dsn, request["id"]) == ("pending",)  # nobody left to expire it
    with serve(home, dsn, ["after restart"]) as (again, _):
        await healthy(again)  # start-up expires the rows of dead owners on this host
        assert await status_of(dsn, request["id"]) == ("timeout",)
        async with httpx.AsyncClient(headers=hud_headers()) as http:
            history = (await http.get(f"http://{again}/api/sessions/{session}/history")).json()
            sessions = (await http.get(f"http://{again}/api/sessions")).json()
    # The finished turn is intact; the killed one kept what was asked (stored before the loop).
    assert history == [
        {"turn": 1, "ts_ms": ANY, "message": {"role": "user", "content": "hello"}},
        {
            "turn": 1,
            "ts_ms": ANY,
            "message": {
                "role": "assistant",
                "content": "first answer",
                "thinking": "",
                "tool_calls": [],
                "usage": ANY,
                "stop_reason": "stop",
            },
        },
        {"turn": 2, "ts_ms": ANY, "message": {"role": "user", "content": "deploy it"}},
    ]
    assert [(s["id"], s["turns"], s["title"]) for s in sessions] == [(session, 2, "hello")]
