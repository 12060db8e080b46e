"""The real server on PostgreSQL while the database path is cut and restored: every turn ends
with agent_end or agent_error, answers are stored or refused (503), sockets survive a failed
handler, and turns work again after the cut without a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.support.hang import HANG_GUARD_SEC
from tests.support.live_server import LiveServer, Tab, live_server
from tests.support.tcp_proxy import TcpProxy, through

ENDINGS = ("agent_end", "agent_error")


def bash(command: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


def storage(dsn: str, proxy_: TcpProxy) -> dict[str, Any]:
    return {"backend": "postgres", "postgres_dsn": through(proxy_, dsn)}


async def turn(tab: Tab, text: str) -> dict[str, Any]:
    """Send a prompt; the one closing event of the turn."""
    await tab.send(type="prompt", text=text)
    return await tab.next(ENDINGS)


async def test_turns_during_a_cut_end_visibly_and_work_again_after(
    tmp_path: Path, dsn: str, proxy: TcpProxy
) -> None:
    answers = ["first", "during 1", "during 2", "after"]
    with live_server(tmp_path, answers, storage=storage(dsn, proxy)) as server:
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        assert (await turn(tab, "one"))["type"] == "agent_end"
        proxy.cut()
        for text in ("two", "three"):  # each ends with exactly one visible event
            ended = await turn(tab, text)
            assert ended["type"] == "agent_error" and "database unavailable" in ended["message"]
        refused = await Tab.open(server.ws_url())  # a new tab during the cut: told why
        code, reason = await refused.closed()
        assert code == 4503 and reason is not None and "database unavailable" in reason
        proxy.restore()
        ended = await until_a_turn_works(tab)
        assert ended["type"] == "agent_end"
        await tab.close()
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            sessions = (await http.get("/api/sessions")).json()
            history = (await http.get(f"/api/sessions/{sessions[0]['id']}/history")).json()
        said = [e["message"]["content"] for e in history if e["message"]["role"] == "assistant"]
        assert said[0] == "first" and said[-1] in ("during 1", "during 2", "after")


async def test_an_answer_during_a_cut_is_refused_and_the_socket_stays(
    tmp_path: Path, dsn: str, proxy: TcpProxy
) -> None:
    with live_server(tmp_path, [bash("echo hi"), "done"], storage=storage(dsn, proxy)) as server:
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        await tab.send(type="prompt", text="run it")
        request = await tab.next("approval_request")
        proxy.cut()
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            answered = await http.post(
                f"/api/approvals/{request['id']}",
                json={"answer": "allow", "session_id": request["session_id"]},
            )
        assert answered.status_code == 503, answered.text
        await tab.send(type="approval", id=request["id"], answer="allow")
        error = await tab.next("error")
        assert error["code"] == 503 and "database unavailable" in error["message"]
        proxy.restore()
        await until_answered(
            server, request["id"], request["session_id"]
        )  # the same socket, the same request
        end = await tab.next("tool_execution_end")
        assert end["result_preview"].startswith("hi") or "hi" in end["result_preview"]
        assert (await tab.next("agent_end"))["ended_by"] == "answer"
        await tab.close()


async def until_a_turn_works(tab: Tab) -> dict[str, Any]:
    async with asyncio.timeout(HANG_GUARD_SEC):  # a hang guard only
        while True:
            ended = await turn(tab, "again")
            if ended["type"] == "agent_end":
                return ended


async def until_answered(server: LiveServer, item_id: str, session_id: str) -> None:
    async with (
        asyncio.timeout(HANG_GUARD_SEC),
        httpx.AsyncClient(base_url=server.url, headers=server.headers) as http,
    ):
        while True:
            answer = {"answer": "allow", "session_id": session_id}
            response = await http.post(f"/api/approvals/{item_id}", json=answer)
            if response.status_code == 200:
                return
            assert response.status_code == 503
            await asyncio.sleep(0.05)
