"""Two real `jarvis serve` processes on one PostgreSQL; B's path to the database is cut and
restored: B's LISTEN connection comes back by itself, so a request made on A reaches the tab on
B again, and B answers it — no restart."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.support.live_server import Tab
from tests.support.processes import bash, healthy, hud_headers, serve
from tests.support.tcp_proxy import TcpProxy, through


async def test_a_tab_on_b_sees_requests_again_after_bs_database_path_returns(
    tmp_path: Path, dsn: str, proxy: TcpProxy
) -> None:
    script = [bash("echo first"), "one", bash("echo second"), "two"]
    with (
        serve(tmp_path / "a", dsn, script) as (a, _),
        serve(tmp_path / "b", through(proxy, dsn), ["unused"]) as (b, _),
    ):
        await asyncio.gather(healthy(a), healthy(b))
        tab_a = await Tab.open(f"ws://{a}/ws")
        session = (await tab_a.next("session"))["session"]["id"]
        tab_b = await Tab.open(f"ws://{b}/ws?session={session}")
        await tab_b.next("session")
        await answer_on_b(tab_a, tab_b, b)
        proxy.cut()  # B loses its pool and its LISTEN connection; its tab stays open
        connections_before = proxy.connections
        proxy.restore()
        while proxy.connections == connections_before:  # B reconnects by itself
            await asyncio.sleep(0.05)
        await answer_on_b(tab_a, tab_b, b)
        await tab_a.close()
        await tab_b.close()


async def answer_on_b(tab_a: Tab, tab_b: Tab, b: str) -> None:
    await tab_a.send(type="prompt", text="run it")
    request = await tab_b.next("approval_request")
    async with httpx.AsyncClient(headers=hud_headers()) as http:
        while True:  # B's pool may still be reconnecting: 503 means "not stored, try again"
            answered = await http.post(
                f"http://{b}/api/approvals/{request['id']}",
                json={"answer": "allow", "session_id": request["session_id"]},
            )
            if answered.status_code == 200:
                break
            assert answered.status_code == 503, answered.text
            await asyncio.sleep(0.05)
    end = await tab_a.next("tool_execution_end")
    assert not end["is_error"], end
    assert (await tab_a.next("agent_end"))["ended_by"] == "answer"
