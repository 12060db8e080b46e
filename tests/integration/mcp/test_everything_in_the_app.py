"""server-everything inside the running app: sampling goes through an approval to Jarvis's own
model; an elicitation form reaches the session's window and is answered over HTTP."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from tests.integration.mcp.conftest import wait_for
from tests.support.live_server import Tab, live_server


def _everything(npm_bin: Path) -> dict[str, object]:
    return {"command": str(npm_bin / "mcp-server-everything"), "args": ["stdio"]}


async def test_sampling_asks_first_then_uses_the_app_model(npm_bin: Path, tmp_path: Path) -> None:
    call = {"name": "everything__trigger-sampling-request", "arguments": {"prompt": "haiku"}}
    script = [{"tool_calls": [call]}, "a sampled haiku", "done"]
    with live_server(tmp_path, script, mcpServers={"everything": _everything(npm_bin)}) as server:
        tools = server.assembly.tools
        await wait_for(lambda: tools.get(call["name"]) is not None)
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        await tab.send(type="prompt", text="sample something")
        tool = await tab.next("approval_request")
        await tab.send(type="approval", id=tool["id"], answer="allow")

        sampling = await tab.next("approval_request")
        assert (sampling["tool"], sampling["source"]) == ("mcp_sampling", "mcp:everything")
        shown = {arg["key"]: arg["value"] for arg in sampling["args"]}
        assert "haiku" in shown["messages"]
        await tab.send(type="approval", id=sampling["id"], answer="allow")
        end = await tab.next("tool_execution_end")
        assert not end["is_error"] and "a sampled haiku" in end["result_preview"]
        await tab.close()


async def test_an_elicitation_form_is_answered_from_the_window(
    npm_bin: Path, tmp_path: Path
) -> None:
    call = {"name": "everything__trigger-elicitation-request", "arguments": {}}
    script = [{"tool_calls": [call]}, "thanks"]
    servers = {
        "everything": {**_everything(npm_bin), "auto_approve": ["trigger-elicitation-request"]}
    }
    with live_server(tmp_path, script, mcpServers=servers) as server:
        tools = server.assembly.tools
        await wait_for(lambda: tools.get(call["name"]) is not None)
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        await tab.send(type="prompt", text="ask me")
        form = await tab.next("mcp_elicitation")
        assert form["server"] == "everything" and "name" in form["schema_"]["properties"]
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            body = {
                "session_id": form["session_id"],
                "action": "accept",
                "content": {"name": "Ada"},
            }
            first = await http.post(f"/api/mcp/elicitations/{form['id']}", json=body)
            again = await http.post(f"/api/mcp/elicitations/{form['id']}", json=body)
        assert (first.status_code, again.status_code) == (200, 409)
        resolved = await tab.next("mcp_elicitation_resolved")
        assert resolved["action"] == "accept"
        end = await tab.next("tool_execution_end")
        assert "Ada" in end["result_preview"]
        await tab.close()


async def test_prompts_argument_values_and_resource_templates_over_http(
    npm_bin: Path, tmp_path: Path
) -> None:
    with live_server(
        tmp_path, ["unused"], mcpServers={"everything": _everything(npm_bin)}
    ) as server:
        await wait_for(lambda: server.assembly.mcp.status()[0].ok)
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            listed = (await http.get("/api/mcp/prompts")).json()["prompts"]
            query = {"server": "everything", "prompt": "completable-prompt", "argument": "name"}
            people = await http.get(
                "/api/mcp/complete",
                params={**query, "value": "", "context": json.dumps({"department": "Sales"})},
            )
            unknown = await http.get("/api/mcp/complete", params={**query, "server": "nobody"})
            broken = await http.get("/api/mcp/complete", params={**query, "context": "[1]"})
            catalog = (await http.get("/api/mcp/resources", params={"server": "everything"})).json()
        async with httpx.AsyncClient(base_url=server.url) as stranger:
            refused = await stranger.get("/api/mcp/complete", params=query)

    team = next(p for p in listed if p["command"] == "/everything:completable-prompt")
    assert [a["name"] for a in team["arguments"]] == ["department", "name"]
    assert (people.status_code, people.json()) == (200, {"values": ["David", "Eve", "Frank"]})
    assert (unknown.status_code, broken.status_code, refused.status_code) == (404, 422, 401)
    templates = [t["uri_template"] for t in catalog["templates"]]
    assert "demo://resource/dynamic/text/{resourceId}" in templates and catalog["resources"]
