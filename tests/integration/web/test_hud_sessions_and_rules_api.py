"""Sessions rename/delete and rule undo over HTTP: the owner may, a foreign page, another person
or no login may not."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.support.live_server import LiveServer, live_server
from tests.support.ports import free_port


async def made_session(http: httpx.AsyncClient) -> str:
    return str((await http.post("/api/sessions")).json()["id"])


def titles(rows: list[dict[str, object]]) -> dict[object, object]:
    return {row["id"]: row["title"] for row in rows}


def foreign(server: LiveServer) -> dict[str, str]:
    """The HUD's cookie (browsers send it to every port of the host) from another page."""
    return {**server.headers, "Origin": f"http://127.0.0.1:{free_port()}"}


async def test_the_owner_renames_and_deletes(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            sid = await made_session(http)
            renamed = await http.patch(f"/api/sessions/{sid}", json={"title": " Trip\nplan "})
            assert renamed.status_code == 200 and renamed.json()["title"] == "Trip plan"
            assert titles((await http.get("/api/sessions")).json()) == {sid: "Trip plan"}
            assert (
                await http.patch(f"/api/sessions/{sid}", json={"title": "  "})
            ).status_code == 422
            assert (await http.delete(f"/api/sessions/{sid}")).json() == {"deleted": True}
            assert (await http.get("/api/sessions")).json() == []
            assert (await http.delete(f"/api/sessions/{sid}")).status_code == 404
            assert (await http.get(f"/api/sessions/{sid}/history")).status_code == 404


async def test_a_foreign_origin_or_no_login_changes_nothing(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            sid = await made_session(http)
            await http.patch(f"/api/sessions/{sid}", json={"title": "mine"})
        async with httpx.AsyncClient(base_url=server.url) as attacker:
            origin = {"Origin": server.url}
            no_cookie = await attacker.delete(f"/api/sessions/{sid}", headers=origin)
            assert no_cookie.status_code == 401
            no_cookie = await attacker.patch(
                f"/api/sessions/{sid}", json={"title": "x"}, headers=origin
            )
            assert no_cookie.status_code == 401
            cross = await attacker.delete(f"/api/sessions/{sid}", headers=foreign(server))
            assert cross.status_code == 403
            cross = await attacker.patch(
                f"/api/sessions/{sid}", json={"title": "pwned"}, headers=foreign(server)
            )
            assert cross.status_code == 403
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            assert titles((await http.get("/api/sessions")).json()) == {sid: "mine"}


async def test_another_users_session_is_refused(tmp_path: Path) -> None:
    keys = [{"name": "ann", "key": "k-ann-123456789"}, {"name": "bob", "key": "k-bob-123456789"}]
    with live_server(tmp_path, ["hi"], security={"api_keys": keys}) as server:
        ann = {"Authorization": "Bearer k-ann-123456789"}
        bob = {"Authorization": "Bearer k-bob-123456789"}
        async with httpx.AsyncClient(base_url=server.url) as http:
            sid = str((await http.post("/api/sessions", headers=ann)).json()["id"])
            refused = await http.delete(f"/api/sessions/{sid}", headers=bob)
            assert refused.status_code == 403
            refused = await http.patch(f"/api/sessions/{sid}", json={"title": "b"}, headers=bob)
            assert refused.status_code == 403
            assert [r["id"] for r in (await http.get("/api/sessions", headers=ann)).json()] == [sid]


async def test_undo_puts_back_only_what_this_person_revoked(tmp_path: Path) -> None:
    keys = [{"name": "ann", "key": "k-ann-123456789"}, {"name": "bob", "key": "k-bob-123456789"}]
    rules = "rules:\n  - {tool: bash, pattern: git log, granted_by: bob}\n"
    (tmp_path / "approvals").mkdir()
    (tmp_path / "approvals" / "main.yaml").write_text(rules, encoding="utf-8")
    with live_server(tmp_path, ["hi"], security={"api_keys": keys}) as server:
        ann = {"Authorization": "Bearer k-ann-123456789"}
        bob = {"Authorization": "Bearer k-bob-123456789"}
        own = {"agent": "main", "tool": "bash", "pattern": "git log"}
        async with httpx.AsyncClient(base_url=server.url) as http:
            revoked = (await http.post("/api/rules/revoke", json=own, headers=bob)).json()
            assert revoked["removed"] == 1 and revoked["undo"]
            undo = {"token": revoked["undo"]}
            assert (await http.post("/api/rules/undo", json=undo, headers=ann)).status_code == 404
            back = await http.post("/api/rules/undo", json=undo, headers=bob)
            assert back.json() == {"restored": 1}
            assert (await http.post("/api/rules/undo", json=undo, headers=bob)).status_code == 404
            listed = (await http.get("/api/rules", headers=bob)).json()["files"]
            assert [r["pattern"] for r in listed["approvals/main.yaml"]] == ["git log"]
            assert listed["approvals/main.yaml"][0]["granted_by"] == "bob"
