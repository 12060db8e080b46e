"""An MCP server configured in settings: its tools reach the model and pass the same gate."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.integration.mcp.conftest import DEMO_SCRIPT, wait_for
from tests.support.live_server import Tab, live_server


async def test_mcp_tools_need_approval_and_name_their_server(tmp_path: Path) -> None:
    servers = [
        {
            "name": "demo",
            "transport": "stdio",
            "command": [sys.executable, str(DEMO_SCRIPT), "--prefix", ""],
        },
        {"name": "broken", "transport": "stdio", "command": ["/nonexistent/server"]},
    ]
    script = [
        {"tool_calls": [{"name": "demo__echo", "arguments": {"text": "hi from mcp"}}]},
        "done",
    ]
    with live_server(tmp_path, script, mcp_servers=servers) as server:
        # The server runs in its own thread and loop: watch its status, don't await its events.
        mcp = server.assembly.mcp
        await wait_for(lambda: all(s.state != "connecting" for s in mcp.status()))
        assert server.assembly.tools.get("demo__echo") is not None
        statuses = {s.name: s.state for s in server.assembly.mcp.status()}
        assert statuses == {"demo": "connected", "broken": "failed"}
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        await tab.send(type="prompt", text="echo something")
        request = await tab.next("approval_request")
        assert (request["tool"], request["source"]) == ("demo__echo", "mcp:demo")
        assert request["args"][0]["value"] == "hi from mcp"
        await tab.send(type="approval", id=request["id"], answer="allow")
        end = await tab.next("tool_execution_end")
        assert not end["is_error"] and "hi from mcp" in end["result_preview"]
        await tab.close()


async def test_editing_config_yaml_reconnects_only_changed_servers(tmp_path: Path) -> None:
    import asyncio
    import json

    def server(name: str, prefix: str) -> dict[str, object]:
        return {
            "name": name,
            "transport": "stdio",
            "command": [sys.executable, str(DEMO_SCRIPT), "--prefix", prefix],
        }

    def write(servers: list[dict[str, object]]) -> None:
        (tmp_path / "config.yaml").write_text(
            json.dumps({"mcp_servers": servers}), encoding="utf-8"
        )

    async def until(check: object) -> None:
        while not check():  # type: ignore[operator]  # no budget: pytest's timeout guards
            await asyncio.sleep(0.02)

    with live_server(tmp_path, ["x"]) as live:
        tools = live.assembly.tools
        write([server("a", "a_")])
        await until(lambda: tools.get("a__a_echo") is not None)
        first = live.assembly.mcp.connection("a")
        write([server("a", "a_"), server("b", "b_")])
        await until(lambda: tools.get("b__b_echo") is not None)
        assert live.assembly.mcp.connection("a") is first  # unchanged: not reconnected
        write([server("b", "b_")])
        await until(lambda: tools.get("a__a_echo") is None)
        assert tools.get("b__b_echo") is not None


def _demo() -> dict[str, object]:
    return {"command": sys.executable, "args": [str(DEMO_SCRIPT), "--prefix", ""]}


async def test_a_server_tool_named_bash_is_not_the_shell(tmp_path: Path) -> None:
    script = [
        {"tool_calls": [{"name": "demo__grow", "arguments": {"name": "bash"}}]},
        "grown",
        {"tool_calls": [{"name": "demo__bash", "arguments": {"command": "rm -rf /"}}]},
        "done",
    ]
    with live_server(tmp_path, script, mcpServers={"demo": _demo()}) as server:
        tools = server.assembly.tools
        await wait_for(lambda: tools.get("demo__grow") is not None)
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        await tab.send(type="prompt", text="grow a bash tool")
        request = await tab.next("approval_request")
        await tab.send(type="approval", id=request["id"], answer="allow")
        await tab.next("agent_end")
        await wait_for(lambda: tools.get("demo__bash") is not None)
        assert tools.get("bash") is None or tools.get("bash").source.kind == "builtin"  # type: ignore[union-attr]

        await tab.send(type="prompt", text="now run it")
        # Judged as the server's tool: asked about (not blocked as a dangerous shell line).
        request = await tab.next("approval_request")
        assert (request["tool"], request["source"]) == ("demo__bash", "mcp:demo")
        await tab.send(type="approval", id=request["id"], answer="deny")
        await tab.next("agent_end")
        await tab.close()


async def test_status_reconnect_and_mcp_json_live_edits(tmp_path: Path) -> None:
    import json

    import httpx

    with live_server(tmp_path, ["x"]) as server:
        mcp = server.assembly.mcp
        (tmp_path / "mcp.json").write_text(
            json.dumps({"mcpServers": {"demo": _demo(), "odd": {"colour": "blue"}}}),
            encoding="utf-8",
        )
        await wait_for(lambda: any(s.ok for s in mcp.status()))
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            listed = (await http.get("/api/mcp")).json()["servers"]
            by_name = {s["name"]: s for s in listed}
            assert by_name["demo"]["state"] == "connected"
            assert {
                "name": "demo__echo",
                "own_name": "echo",
                "description": "Echo the text back.",
            } in by_name["demo"]["tools"]
            assert by_name["odd"]["state"] == "broken"
            assert by_name["odd"]["error"].endswith(
                "mcp.json: mcpServers.odd: unknown keys: colour"
            )

            first = mcp.connection("demo")
            client = first.client if first else None
            answer = await http.post("/api/mcp/reconnect", json={"name": "demo"})
            assert answer.status_code == 200
            await wait_for(lambda: first is not None and first.client not in (None, client))
            missing = await http.post("/api/mcp/reconnect", json={"name": "nope"})
            assert missing.status_code == 404

        # `jarvis mcp reconnect demo` drops a file the running app picks up.
        client = first.client if first else None
        (tmp_path / "mcp-reconnect").write_text("demo", encoding="utf-8")
        await wait_for(lambda: not (tmp_path / "mcp-reconnect").exists())
        await wait_for(lambda: first is not None and first.client not in (None, client))
