"""Sub-agents and team agents in Chromium: a sub-agent's bash call asks the human in the parent
session's HUD (labelled with who asks), its work is shown nested, and the agent switcher opens a
session of another agent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, expect

from tests.browser.test_hud_access_and_modal import open_hud, say
from tests.support.live_server import live_server


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": tool, "arguments": arguments}]}


def home_with_agents(home: Path) -> Path:
    (home / "team").mkdir()
    (home / "team" / "karen.yaml").write_text(json.dumps({"name": "KAREN"}), "utf-8")
    (home / "agents").mkdir()
    coder = {"name": "coder", "description": "runs commands", "tools": ["bash"]}
    (home / "agents" / "coder.yaml").write_text(json.dumps(coder), "utf-8")
    return home


async def test_a_subagents_bash_call_asks_the_human_in_the_parents_hud(
    browser: Browser, tmp_path: Path
) -> None:
    script = [
        call("agent_coder", task="print the marker"),
        call("bash", command="echo sub-agent-marker"),
        "coder: printed it",
        "JARVIS: the coder printed it",
    ]
    with live_server(home_with_agents(tmp_path), script) as server:
        page = await open_hud(browser, server.launch_url())
        await say(page, "have the coder print it")
        await expect(page.locator("#modal")).to_be_visible()
        await expect(page.locator("#modal-title")).to_contain_text("bash")
        await expect(page.locator("#modal-agent")).to_have_text("요청한 에이전트: JARVIS › coder")
        await page.click("#modal-buttons [data-answer=allow]")
        await expect(page.locator("#modal")).to_be_hidden()
        nested = page.locator("#messages .msg.tool.nested.depth-1")
        await expect(nested.filter(has_text="main › coder ✓ bash")).to_have_count(1)
        await expect(page.locator("#messages .msg.assistant").last).to_have_text(
            "JARVIS: the coder printed it"
        )
        await expect(page.locator("#activity li.nested").first).to_contain_text("main › coder")


async def test_the_switcher_opens_a_session_of_another_agent(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(home_with_agents(tmp_path), ["hi", "hello from KAREN"]) as server:
        page = await open_hud(browser, server.launch_url())
        await say(page, "hello jarvis")
        await expect(page.locator("#messages .msg.assistant").last).to_have_text("hi")
        switcher = page.locator("#agent-select")
        await expect(switcher.locator("option")).to_have_text(["JARVIS", "KAREN"])
        await expect(page.locator("body")).to_have_attribute("data-agent", "main")
        await switcher.select_option("karen")
        await expect(page.locator("body")).to_have_attribute("data-agent", "karen")
        await expect(page.locator("#agent-select")).to_have_value("karen")
        await expect(page.locator(".brand")).to_have_text("KAREN")
        # KAREN's session is listed once it has a message; then the pane groups by agent.
        await say(page, "hello karen")
        await expect(page.locator("#messages .msg.assistant").last).to_have_text("hello from KAREN")
        groups = page.locator("#session-list li.agent-group")
        await expect(groups).to_have_text(["JARVIS", "KAREN"])
