"""Dropping extensions into a running Jarvis: usable on the next turn, gone when deleted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from tests.support.live_server import LiveServer, Tab, live_server

MY_TOOL = """
TOOL_NAME = "my-tool"
TOOL_DESCRIPTION = "유용한 작업 수행"
TOOL_PARAMETERS = {"type": "object", "properties": {"query": {"type": "string"}},
                   "required": ["query"]}

async def execute(tool_call_id: str, params: dict, **kwargs) -> dict:
    return {"content": f"결과: {params['query']}"}
"""
SKILL = """---
name: summarize
description: 텍스트를 요약합니다
aliases: [sum]
---
다음 텍스트를 간결하게 요약해 주세요:

{{args}}
"""
PLUGIN = """
class Shouter:
    name = "shouter"
    version = "1.0.0"

    async def on_message_end(self, message):
        return message.upper()

    async def transform_context(self, messages):
        return messages
"""


async def wait_for(check: Callable[[], bool]) -> None:
    """Poll with no wall-clock budget; pytest's timeout catches a reload that never comes."""
    while not check():
        await asyncio.sleep(0.01)


def tool_names(server: LiveServer) -> list[str]:
    return server.assembly.tools.names()


async def test_drop_a_tool_skill_and_plugin_then_delete_the_tool(tmp_path: Path) -> None:
    script = [
        {"tool_calls": [{"name": "my-tool", "arguments": {"query": "jarvis"}}]},
        "used my tool",
        "summary done",
        "still here",
    ]
    with live_server(tmp_path, script, security={"require_approval_for": ["bash"]}) as server:
        (tmp_path / "tools").mkdir()  # created after start-up
        (tmp_path / "tools" / "my_tool.py").write_text(MY_TOOL, encoding="utf-8")
        (tmp_path / "skills").mkdir()
        (tmp_path / "skills" / "summarize.md").write_text(SKILL, encoding="utf-8")
        await wait_for(lambda: "my-tool" in tool_names(server))
        await wait_for(lambda: server.assembly.skills.get("sum") is not None)
        tab = await Tab.open(server.ws_url())
        session_id = (await tab.next("session"))["session"]["id"]
        await tab.send(type="prompt", text="use the tool")
        end = await tab.next("tool_execution_end")
        assert end["tool_name"] == "my-tool" and end["result_preview"] == "결과: jarvis"
        await tab.next("agent_end")

        (tmp_path / "plugins").mkdir()
        (tmp_path / "plugins" / "shouter.py").write_text(PLUGIN, encoding="utf-8")
        await wait_for(lambda: bool(server.assembly.plugins.plugins))
        await tab.send(type="prompt", text="/sum 긴 글입니다")
        ended = await tab.next("agent_end")
        assert ended["final_message"]["content"] == "summary done"  # streamed as the model said
        provider = next(iter(server.assembly._provider_cache.values()))
        asked = provider.calls[-1].messages[-1].content  # type: ignore[attr-defined]
        assert asked.startswith("다음 텍스트를 간결하게 요약해 주세요") and "긴 글입니다" in asked
        history = server.assembly.session_store
        entries = await history.history(session_id)
        assert entries[-1].message.content == "SUMMARY DONE"  # on_message_end replaced it

        (tmp_path / "tools" / "my_tool.py").unlink()
        await wait_for(lambda: "my-tool" not in tool_names(server))
        await tab.send(type="prompt", text="anything")
        await tab.next("agent_end")
        assert "my-tool" not in [t.name for t in provider.calls[-1].tools]  # type: ignore[attr-defined]
        await tab.close()
