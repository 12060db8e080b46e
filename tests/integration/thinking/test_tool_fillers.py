"""Per-tool fillers through the real server (issue 26 item 3): a scripted model calls a tool
whose run-time history predicts a long wait; the window gets one filler naming what runs
("checking `git status` with bash…"), in the session's language, after the call starts — never
in the history, never in what the model sees, not again within the last three."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from jarvis.app.session_builder import SessionBuilder
from jarvis.core.thinking.fillers import filler_lines, tool_key
from jarvis.model_layer import FauxProvider
from tests.support.live_server import LiveServer, Tab, live_server

# Rules a person wrote by hand: these run without asking (an approval's wait is not the tool's).
RULES = """rules:
  - {tool: bash, pattern: git status}
  - {tool: bash, pattern: git log}
  - {tool: bash, pattern: ls}
"""


def bash(command: str) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


def builder(server: LiveServer) -> SessionBuilder:
    main: SessionBuilder = server.server.config.app.state.web.agents.get("main")
    return main


def model_of(server: LiveServer) -> FauxProvider:
    [provider] = [p for p in server.assembly._provider_cache.values()]
    assert isinstance(provider, FauxProvider)
    return provider


async def turn(tab: Tab, text: str) -> list[dict[str, Any]]:
    await tab.send(type="prompt", text=text)
    return await tab.drain_until("agent_end")


def fillers(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "proactive_message" and e["kind"] == "filler"]


async def open_session(server: LiveServer, lang: str) -> tuple[str, Tab]:
    async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
        sid = str((await http.post("/api/sessions", params={"lang": lang})).json()["id"])
    tab = await Tab.open(f"{server.ws_url(sid)}&lang={lang}")
    await tab.next("session")
    return sid, tab


async def history_text(server: LiveServer, sid: str) -> str:
    async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
        return (await http.get(f"/api/sessions/{sid}/history")).text


async def test_a_tool_known_to_be_slow_gets_one_filler_naming_it(tmp_path: Path) -> None:
    script = [bash("git status"), "clean.", bash("git status"), "still clean.", bash("ls"), "ok."]
    (tmp_path / "approvals.yaml").write_text(RULES)
    with live_server(tmp_path, script) as server:
        waits = builder(server).waits
        for _ in range(5):  # bash, and git status with it, ran slowly here before
            waits.record(tool_key("bash"), 6.0)
            waits.record("tool:bash:git status", 6.0)
        sid, tab = await open_session(server, "en")
        events = await turn(tab, "is the repo clean?")
        [filler] = fillers(events)
        assert filler["text"] == "checking `git status` with bash…"
        assert filler["message_id"] == f"filler:{sid}:1"
        kinds = [e["type"] for e in events]
        assert kinds.index("tool_execution_start") < kinds.index("proactive_message")
        assert kinds.index("proactive_message") < kinds.index("message_update")
        assert len(list(waits._waits[tool_key("bash")])) == 6  # this run was measured too
        assert len(list(waits._waits["tool:bash:git status"])) == 6  # and as `git status`

        # Still predicted slow, but the same line within the last three: none (and the model
        # is fast: no other). `ls` was never measured: bash's own median predicts it.
        assert fillers(await turn(tab, "and now?")) == []
        [other] = fillers(await turn(tab, "list the files"))
        assert other["text"] == "checking `ls` with bash…"
        await tab.close()

        history = await history_text(server, sid)
        seen = " ".join(str(m.content) for ctx in model_of(server).calls for m in ctx.messages)
        for line in (filler["text"], other["text"]):
            assert line not in history and line not in seen


async def test_korean_session_and_at_most_one_filler_per_turn(tmp_path: Path) -> None:
    """A slow model and a slow tool in one turn: the first round's filler only."""
    script = [bash("git status"), "깨끗해요.", bash("git log -1"), "최근 커밋이에요."]
    (tmp_path / "approvals.yaml").write_text(RULES)
    with live_server(tmp_path, script) as server:
        waits = builder(server).waits
        waits.record(tool_key("bash"), 6.0)
        sid, tab = await open_session(server, "ko")
        [first] = fillers(await turn(tab, "저장소 상태 봐줘"))
        assert first["text"] == "bash로 `git status` 확인하는 중…"
        model = builder(server).setup("ko").model
        key = next(k for k in waits._waits if k.endswith(f":{model}"))
        waits.record(key, 6.0)  # the model, too, is slow to start now
        waits.record(key, 6.0)
        [only] = fillers(await turn(tab, "마지막 커밋 보여줘"))
        assert only["text"] == filler_lines("first_round", "ko")[0]
        assert only["message_id"] == f"filler:{sid}:2"
        await tab.close()
