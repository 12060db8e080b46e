"""The HUD's memory and procedure API through the real server."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.integration.procedures.test_live import open_tab, save_draft, turn
from tests.support.live_server import live_server


async def test_memory_and_procedure_routes(tmp_path: Path) -> None:
    save_draft(tmp_path)
    with live_server(tmp_path, ["noted"]) as server:
        tab, session = await open_tab(server)
        await turn(tab, "my dog is called Bori")
        await tab.close()
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            assert (await http.post("/api/memory/wrong")).status_code == 422  # never a new one
            assert (await http.get("/api/memory?agent=nobody")).status_code == 404
            items = (await http.get(f"/api/memory?session={session}")).json()["items"]
            assert (await http.get("/api/memory")).json()["items"] == items  # main, this person
            # The turn's episode, and the fact the person stated (semantic memory).
            assert sorted(i["kind"] for i in items) == ["episode", "semantic"]
            assert all("Bori" in i["text"] for i in items)
            wrong = await http.post(f"/api/memory/wrong?session={session}")
            assert "(1)" in wrong.json()["text"]
            episode = next(i for i in items if i["kind"] == "episode")
            gone = await http.delete(f"/api/memory/{episode['id']}?session={session}")
            assert gone.status_code == 200
            again = await http.delete(f"/api/memory/{episode['id']}?session={session}")
            assert again.status_code == 404
            listed = (await http.get(f"/api/procedures?session={session}")).json()["procedures"]
            assert [(p["name"], p["status"], p["revision"]) for p in listed] == [
                ("list-and-echo", "draft", None)
            ]
            base = f"/api/procedures/list-and-echo/%s?session={session}"
            assert (await http.post(base % "reject")).json() == {"result": "rejected"}
            assert (await http.post(base % "approve")).json() == {"result": "approved"}
            missing = await http.post(f"/api/procedures/nope/approve?session={session}")
            assert missing.status_code == 404
            other = await http.get("/api/procedures?session=not-a-session")
            assert other.status_code == 404
