"""Promises through the real server: the judge beside the reply, the AGENDA API, commands."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from tests.support.live_server import LiveServer, Tab, live_server

PROMISE = "내일 오후 3시까지 분기 보고서 초안을 팀장님께 보내야 해"
RESTATED = "분기 보고서 초안 팀장님께 보내야 하는 거 기억해 줘"
CANCEL = "보고서는 취소됐어, 안 챙겨도 돼"
# The judge, as small models do, drops the due date and misses the cancellation.
JUDGE = [
    "분기 보고서 초안을 팀장님께 보내기 (근거: 분기 보고서 초안을 팀장님께 보내야 해)",
    "분기 보고서 초안을 팀장님께 보내기 (근거: 분기 보고서 초안 팀장님께 보내야)",
    "없음",
]


async def turn(tab: Tab, text: str) -> list[dict[str, Any]]:
    await tab.send(type="prompt", text=text)
    return await tab.drain_until("agent_end")


async def agenda(http: httpx.AsyncClient) -> dict[str, Any]:
    response = await http.get("/api/agenda")
    assert response.status_code == 200
    return dict(response.json())


async def settle(server: LiveServer, http: httpx.AsyncClient, want: int) -> dict[str, Any]:
    """The judge runs beside the reply; wait for its result to land (no wall-clock budget)."""
    while True:
        view = await agenda(http)
        if len(view["open"]) + len(view["closed"]) >= want:
            return view
        await asyncio.sleep(0.05)


async def judged(server: LiveServer) -> None:
    """Wait until no session has an AGENDA job running (a frame that changes nothing emits no
    event, so the sessions' background jobs are the condition)."""
    web = server.server.config.app.state.web
    while any(session._background for session in list(web.builder._live.values())):
        await asyncio.sleep(0.01)


async def test_a_promise_is_kept_merged_and_cancelled(tmp_path: Path) -> None:
    with live_server(
        tmp_path, ["알겠습니다.", "네, 기억하고 있어요.", "알겠습니다, 뺄게요."], judge=JUDGE
    ) as server:
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            await turn(tab, PROMISE)
            view = await settle(server, http, 1)
            (loop,) = view["open"]
            tomorrow = datetime.now(ZoneInfo("Asia/Seoul")) + timedelta(days=1)
            assert loop["due_text"] == tomorrow.strftime("%Y-%m-%d") + " 15:00"
            assert loop["description"] == "분기 보고서 초안을 팀장님께 보내기"
            await turn(tab, RESTATED)
            await judged(server)
            assert len((await agenda(http))["open"]) == 1
            await turn(tab, CANCEL)
            await judged(server)
            view = await agenda(http)
            assert view["open"] == [] and view["closed"][0]["status"] == "dismissed"
            revived = await http.post(f"/api/openloops/{loop['id']}", json={"status": "open"})
            assert revived.status_code == 200
            assert [v["id"] for v in (await agenda(http))["open"]] == [loop["id"]]
            assert (
                await http.post("/api/openloops/nope", json={"status": "done"})
            ).status_code == 404
            bad = await http.post(f"/api/openloops/{loop['id']}", json={"status": "later"})
            assert bad.status_code == 422
            await tab.send(type="command", text="/openloop")
            listing = await tab.next("command_result")
            assert loop["id"][:8] in listing["text"]
            await tab.send(type="command", text=f"/openloop done {loop['id'][:8]}")
            assert "done" in (await tab.next("command_result"))["text"]
            assert (await agenda(http))["closed"][0]["status"] == "done"
        await tab.close()


async def test_agenda_changed_is_emitted_when_the_judge_finishes_after_the_reply(
    tmp_path: Path,
) -> None:
    slow_judge = [{"text": "세금 신고서 제출 (근거: 세금 신고서 제출해야 해)", "delay_sec": 0.4}]
    with live_server(tmp_path, ["네."], judge=slow_judge) as server:
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        events = await turn(tab, "금요일까지 세금 신고서 제출해야 해")
        assert not [e for e in events if e["type"] == "agenda_changed"]  # reply first
        changed = await tab.next("agenda_changed")
        assert changed["created"] == 1
        await tab.close()
