"""The HUD's MCP card in Chromium: server states, the reconnect button, an elicitation form
filled in and sent from the window (server-everything asks for it during a tool call)."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from tests.browser.test_hud_access_and_modal import open_hud, say
from tests.integration.mcp.conftest import npm_bin, wait_for  # noqa: F401 - npm_bin: a fixture
from tests.support.live_server import live_server


async def test_mcp_card_shows_states_reconnects_and_answers_a_form(
    browser: Browser,
    npm_bin: Path,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
) -> None:
    servers = {
        "everything": {
            "command": str(npm_bin / "mcp-server-everything"),
            "args": ["stdio"],
            "auto_approve": ["trigger-elicitation-request"],
        },
        "odd": {"colour": "blue"},
    }
    call = {"name": "everything__trigger-elicitation-request", "arguments": {}}
    script = [{"text": "", "tool_calls": [call]}, "thanks"]
    with live_server(tmp_path, script, mcpServers=servers) as server:
        page = await open_hud(browser, server.launch_url())
        card = page.locator(".mcp-card")
        everything = card.locator(".mcp-server", has_text="everything")
        await expect(everything).to_contain_text("연결됨")
        await expect(card.locator(".mcp-server", has_text="odd")).to_contain_text("설정 오류")

        first = server.assembly.mcp.connection("everything")
        assert first is not None
        before = first.client
        await everything.locator("button").click()
        await wait_for(lambda: first.client not in (None, before))
        await expect(card.locator(".mcp-server", has_text="everything")).to_contain_text("연결됨")

        await say(page, "ask me something")
        form = page.locator(".mcp-elicitation")
        await expect(form).to_be_visible()
        await form.locator("input[name=name]").fill("Ada")
        await form.locator("button[type=submit]").click()
        await expect(form).to_have_count(0)
        await expect(page.locator("#messages .msg.assistant").last).to_have_text("thanks")


async def test_mcp_card_lists_resources_and_templates_and_attaches_a_resource(
    browser: Browser,
    npm_bin: Path,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
) -> None:
    everything = {"command": str(npm_bin / "mcp-server-everything"), "args": ["stdio"]}
    with live_server(tmp_path, ["unused"], mcpServers={"everything": everything}) as server:
        page = await open_hud(browser, server.launch_url())
        row = page.locator(".mcp-card .mcp-server", has_text="everything")
        await expect(row).to_contain_text("연결됨")
        await row.locator("details.mcp-resources summary").click()
        templates = row.locator(".mcp-templates code")
        await expect(templates).to_contain_text(
            [
                "demo://resource/dynamic/text/{resourceId}",
                "demo://resource/dynamic/blob/{resourceId}",
            ]
        )
        first = row.locator(".mcp-resource-items button").first
        uri = str(await first.get_attribute("title")).split("@everything:", 1)[1]
        await first.click()
        await expect(page.locator("#input")).to_have_value(f"@everything:{uri} ")
