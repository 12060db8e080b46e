"""Rules through the real server with API keys: each person sees and revokes their own consent;
the shared file is an admin's."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.support.live_server import live_server

KEYS = [
    {"name": "alice", "key": "alice-key-0123456789"},
    {"name": "bob", "key": "bob-key-0123456789ab"},
]
ROLES = {"roles": {"user": {}, "admin": {"admin": True}}, "user_roles": {"alice": "admin"}}
AGENT_FILE = """\
rules:
  - {tool: bash, pattern: git status, granted_by: alice, granted_at: "2026-12-01T00:00:00Z"}
  - {tool: bash, pattern: git log, granted_by: bob, granted_at: "2026-12-01T00:00:00Z"}
  - {tool: bash, pattern: ls}
"""


def as_user(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def patterns(listing: dict[str, list[dict[str, object]]]) -> dict[str, list[object]]:
    return {origin: [row["pattern"] for row in rows] for origin, rows in listing.items()}


async def test_each_person_sees_and_revokes_only_their_own_rules(tmp_path: Path) -> None:
    (tmp_path / "approvals").mkdir()
    (tmp_path / "approvals" / "main.yaml").write_text(AGENT_FILE, encoding="utf-8")
    (tmp_path / "approvals.yaml").write_text("rules:\n  - {tool: bash, pattern: pwd}\n")
    security = {"api_keys": KEYS, **ROLES}
    with live_server(tmp_path, ["hi"], security=security) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            bob = as_user(KEYS[1]["key"])
            seen = (await http.get("/api/rules", headers=bob)).json()["files"]
            assert patterns(seen) == {
                "approvals.yaml": ["pwd"],
                "approvals/main.yaml": ["git log", "ls"],
            }
            mine = {row["pattern"]: row["can_revoke"] for row in seen["approvals/main.yaml"]}
            assert mine == {"git log": True, "ls": False}
            others = {"agent": "main", "tool": "bash", "pattern": "git status"}
            refused = await http.post("/api/rules/revoke", json=others, headers=bob)
            assert refused.status_code == 403
            shared = {"agent": None, "tool": "bash", "pattern": "pwd"}
            not_admin = await http.post("/api/rules/revoke", json=shared, headers=bob)
            assert not_admin.status_code == 403
            own = {"agent": "main", "tool": "bash", "pattern": "git log"}
            own_revoked = (await http.post("/api/rules/revoke", json=own, headers=bob)).json()
            assert own_revoked["removed"] == 1
            alice = as_user(KEYS[0]["key"])  # the admin sees every rule and edits the shared file
            everything = patterns((await http.get("/api/rules", headers=alice)).json()["files"])
            assert everything["approvals/main.yaml"] == ["git status", "ls"]
            shared_revoked = await http.post("/api/rules/revoke", json=shared, headers=alice)
            assert shared_revoked.json() == {"removed": 1, "undo": None}  # a hand-written file
            audit = (await http.get("/api/audit", headers=alice)).json()
            assert [(a["outcome"], a["rule"]) for a in audit] == [
                ("rule_revoked", "approvals.yaml: allow bash pwd")
            ]
