"""Sessions searched by their message text, and the marks a reload needs (a stop, a killed
call's run time) over HTTP: the owner gets them, another person, no login and odd queries get
nothing of anyone else's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.support.live_server import Tab, live_server

KEYS = [{"name": "ann", "key": "k-ann-123456789"}, {"name": "bob", "key": "k-bob-123456789"}]
ANN = {"Authorization": "Bearer k-ann-123456789"}
BOB = {"Authorization": "Bearer k-bob-123456789"}


def bash(command: str) -> dict[str, object]:
    return {"text": "", "tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


async def test_search_reads_titles_and_message_text_of_ones_own_sessions(tmp_path: Path) -> None:
    script = ["The Capital of France is Paris", bash("echo secret-output"), "done"]
    with live_server(tmp_path, script) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            first = str((await http.post("/api/sessions")).json()["id"])
            tab = await Tab.open(server.ws_url(first))
            await tab.next("session")
            await tab.send(type="prompt", text="where is <Paris> & co?")
            await tab.next("agent_end")
            await tab.close()

            async def found(q: str) -> list[object]:
                response = await http.get("/api/sessions/search", params={"q": q})
                assert response.status_code == 200, response.text
                return [hit["id"] for hit in response.json()]

            assert await found("capital of FRANCE") == [first]  # the answer, any case
            assert await found("<paris> & co") == [first]  # the person's words, as typed
            assert await found("nothing like it") == []
            hit = (await http.get("/api/sessions/search", params={"q": "paris"})).json()[0]
            assert "Paris" in hit["snippet"] and "\n" not in hit["snippet"]
            for bad in ("", "x" * 201):
                response = await http.get("/api/sessions/search", params={"q": bad})
                assert response.status_code == 422
        async with httpx.AsyncClient(base_url=server.url) as stranger:
            response = await stranger.get("/api/sessions/search", params={"q": "paris"})
            assert response.status_code == 401


async def test_another_persons_sessions_are_not_searched_nor_their_marks_read(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, ["hi"], security={"api_keys": KEYS}) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            sid = str((await http.post("/api/sessions", headers=ANN)).json()["id"])
            await http.patch(f"/api/sessions/{sid}", json={"title": "ann's plans"}, headers=ANN)
            mine = await http.get("/api/sessions/search", params={"q": "plans"}, headers=ANN)
            assert [h["id"] for h in mine.json()] == [sid]
            theirs = await http.get("/api/sessions/search", params={"q": "plans"}, headers=BOB)
            assert theirs.json() == []
            assert (await http.get(f"/api/sessions/{sid}/marks", headers=BOB)).status_code == 403
            assert (await http.get(f"/api/sessions/{sid}/marks", headers=ANN)).json() == []
            assert (await http.get("/api/sessions/nope/marks", headers=ANN)).status_code == 404


async def test_a_stop_and_the_killed_call_are_marked_and_survive_a_restart(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, [bash("touch started && sleep 60")]) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            sid = str((await http.post("/api/sessions")).json()["id"])
            tab = await Tab.open(server.ws_url(sid))
            await tab.next("session")
            await tab.send(type="prompt", text="wait")
            request = await tab.next("approval_request")
            await tab.send(type="approval", id=request["id"], answer="allow")
            await tab.next("approval_resolved")
            # Stop the call once it runs (a stop before the process exists kills nothing).
            while not (tmp_path / "started").exists():
                await asyncio.sleep(0.01)
            await tab.send(type="abort")
            end = await tab.next("agent_end")
            assert end["ended_by"] == "aborted"
            await tab.close()
            marks = (await http.get(f"/api/sessions/{sid}/marks")).json()
    # the prompt's route (the "thoughts" view), the killed call, the stop
    assert [m["kind"] for m in marks] == ["thought", "tool", "stopped"]
    route, call, stop = marks
    assert route["event"]["type"] == "thought_route"
    assert call["call"] == request["tool_call_id"] and call["killed"] is True
    assert call["ms"] >= 0 and stop["ts_ms"] >= call["ts_ms"]
    with live_server(tmp_path, ["hi"]) as again:  # the same home, a new process state
        async with httpx.AsyncClient(base_url=again.url, headers=again.headers) as http:
            assert (await http.get(f"/api/sessions/{sid}/marks")).json() == marks
            assert (await http.delete(f"/api/sessions/{sid}")).json() == {"deleted": True}
    assert not (tmp_path / "hud" / "marks" / f"{sid}.jsonl").exists()
