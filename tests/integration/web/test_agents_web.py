"""Team agents and sub-agents through the real server: sessions belong to an agent (`?agent=`,
`/api/agents`, `/agent`), a sub-agent's approval reaches the parent session's tabs tagged with
its agent path, and `/orchestrate` runs inside the session."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx

from tests.support.hang import HANG_GUARD_SEC
from tests.support.live_server import Tab, live_server


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": tool, "arguments": arguments}]}


def home_with_agents(home: Path) -> Path:
    (home / "team").mkdir()
    (home / "team" / "karen.yaml").write_text(json.dumps({"name": "KAREN"}), "utf-8")
    (home / "agents").mkdir()
    coder = {"name": "coder", "description": "runs commands", "tools": ["bash"]}
    (home / "agents" / "coder.yaml").write_text(json.dumps(coder), "utf-8")
    return home


async def test_sessions_belong_to_an_agent(tmp_path: Path) -> None:
    with live_server(home_with_agents(tmp_path), ["hi"]) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            listed = (await http.get("/api/agents")).json()
            assert listed["agents"] == [
                {"id": "main", "name": "JARVIS", "model": "faux"},  # the header names it
                {"id": "karen", "name": "KAREN", "model": "faux"},
            ]
            assert [s["name"] for s in listed["subagents"]] == ["coder"]
            created = (await http.post("/api/sessions", params={"agent": "karen"})).json()
            assert created["agent_id"] == "karen"
            assert (await http.post("/api/sessions", params={"agent": "nobody"})).status_code == 404
        tab = await Tab.open(server.ws_url() + "?agent=karen")
        session = (await tab.next("session"))["session"]
        assert session["agent_id"] == "karen"
        await tab.send(type="command", text="/agent")
        listing = (await tab.next("command_result"))["text"]
        assert "* karen" in listing and "  main" in listing
        await tab.send(type="prompt", text="/agent main")  # as the HUD's box sends it
        assert (await tab.next("agent_switch"))["agent"] == "main"
        await tab.close()
        again = await Tab.open(server.ws_url(session["id"]))  # reopened by id: still KAREN's
        assert (await again.next("session"))["session"]["agent_id"] == "karen"
        await again.close()
        unknown = await Tab.open(server.ws_url() + "?agent=nobody")
        assert (await unknown.closed())[0] == 4404
        (tmp_path / "team" / "karen.yaml").write_text("name: [broken", "utf-8")
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            agents = {s["agent_id"] for s in (await http.get("/api/sessions")).json()}
            assert agents == {"karen"}
            # The broken save is reported where ACTIVITY reads it; KAREN stays as she was.
            async with asyncio.timeout(
                HANG_GUARD_SEC
            ):  # until the server's watcher has read the save
                while True:
                    items = (await http.get("/api/extensions")).json()["items"]
                    failed = [i for i in items if i["kind"] == "team" and not i["ok"]]
                    if failed:
                        break
                    await asyncio.sleep(0.05)
            assert "keeping the last good version" in failed[0]["detail"]
            names = [a["name"] for a in (await http.get("/api/agents")).json()["agents"]]
            assert names == ["JARVIS", "KAREN"]


async def test_a_subagents_bash_call_asks_in_the_parent_sessions_tab(tmp_path: Path) -> None:
    script = [
        call("agent_coder", task="print the marker"),  # JARVIS delegates
        call("bash", command="echo sub-agent-marker"),  # the sub-agent wants bash
        "coder: printed it",
        "JARVIS: the coder printed it",
    ]
    with live_server(home_with_agents(tmp_path), script) as server:
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        await tab.send(type="prompt", text="have the coder print it")
        request = await tab.next("approval_request")
        assert request["tool"] == "bash" and request["agent_path"] == ["main", "coder"]
        await tab.send(type="approval", id=request["id"], answer="allow")
        events = await tab.drain_until("agent_end")
        nested = [
            (e["agent_path"], e["event"]["type"], e["event"].get("tool_name"))
            for e in events
            if e["type"] == "agent_event" and e["event"]["type"].startswith("tool_")
        ]
        assert nested == [
            (["main", "coder"], "tool_execution_start", "bash"),
            (["main", "coder"], "tool_execution_end", "bash"),
        ]
        end = next(
            e
            for e in events
            if e["type"] == "tool_execution_end" and e["tool_name"] == "agent_coder"
        )
        assert not end["is_error"] and end["result_preview"] == "coder: printed it"
        assert events[-1]["ended_by"] == "answer"
        await tab.close()


async def test_slash_orchestrate_runs_in_the_session_and_stop_stops_it(tmp_path: Path) -> None:
    script = [call("bash", command="sleep 5"), "never used", "coder: done", "unused"]
    with live_server(home_with_agents(tmp_path), script) as server:
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        await tab.send(type="command", text="/orchestrate swarm do it")
        assert "supervisor" in (await tab.next("command_result"))["text"]
        await tab.send(type="command", text="/orchestrate market run the command")
        assert (await tab.next("agent_start"))["agent_name"] == "JARVIS"
        request = await tab.next("approval_request")
        assert request["agent_path"] == ["main", "coder"]
        await tab.send(type="abort")
        assert (await tab.next("approval_resolved"))["status"] == "cancelled"
        assert (await tab.next("agent_end"))["ended_by"] == "aborted"
        assert (await tab.next("command_result"))["text"] == "중단했습니다."
        await tab.close()
