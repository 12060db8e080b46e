"""Typing `/<server>:<prompt> args` in the HUD composer (Chromium, 1440 px and 390 px): the
prompts of server-everything are offered, then argument names, then the values the server
completes (`completion/complete`); Tab and Enter take one, Esc closes, and the prompt is sent.
A key typed while the suggestion lists are still arriving gets them once they are in."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, expect

from tests.browser.hud_pages import DESKTOP, HANG_GUARD_MS, PHONE
from tests.browser.test_hud_access_and_modal import open_hud
from tests.integration.mcp.conftest import npm_bin, wait_for  # noqa: F401 - npm_bin: a fixture
from tests.support.live_server import live_server

# The page's fetch, with the body of each /api/commands answer held until the test releases it.
HOLD_COMMAND_TABLE = """() => {
  const real = window.fetch;
  window.heldTables = [];
  window.fetch = async (...args) => {
    const res = await real(...args);
    if (String(args[0]).startsWith("/api/commands")) {
      const json = res.json.bind(res);
      res.json = () => new Promise((done) => window.heldTables.push(() => done(json())));
    }
    return res;
  };
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1440", "390"])
async def test_prompt_names_and_argument_values_are_offered_and_taken(
    browser: Browser,
    npm_bin: Path,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
    viewport: dict[str, int],
) -> None:
    everything = {"command": str(npm_bin / "mcp-server-everything"), "args": ["stdio"]}
    with live_server(tmp_path, ["promoted"], mcpServers={"everything": everything}) as server:
        await wait_for(lambda: server.assembly.mcp.status()[0].ok)
        page = await open_hud(browser, server.launch_url(), viewport)
        box, composer = page.locator("#completions"), page.locator("#input")
        options = box.locator("[role=option]")

        # A key typed while the lists are half read (the prompts in, the command table's body
        # not yet) still gets the suggestions once they are in: the body is held until then.
        await page.evaluate(HOLD_COMMAND_TABLE)
        await composer.press_sequentially("/everything:com")
        await page.wait_for_function("window.heldTables.length > 0", timeout=HANG_GUARD_MS)
        await composer.press_sequentially("p")
        await page.evaluate("window.heldTables.forEach((release) => release())")
        await expect(options).to_have_count(1)
        await expect(options.first).to_contain_text("/everything:completable-prompt")
        await expect(composer).to_have_attribute("aria-expanded", "true")
        await composer.press("Tab")
        await expect(composer).to_have_value("/everything:completable-prompt ")
        # Argument names next, then the values the server completes for the one being typed.
        await expect(options.locator(".completion-label")).to_have_text(["department=", "name="])
        await composer.press("Enter")  # Enter takes as Tab does while the list is open
        await expect(composer).to_have_value("/everything:completable-prompt department=")
        await expect(options.locator(".completion-label")).to_have_text(
            ["Engineering", "Sales", "Marketing", "Support"]
        )
        await composer.press_sequentially("En")
        await expect(options.locator(".completion-label")).to_have_text(["Engineering"])
        await composer.press("Tab")
        await expect(composer).to_have_value(
            "/everything:completable-prompt department=Engineering "
        )
        await expect(options.locator(".completion-label")).to_have_text(["name="])
        await composer.press("Escape")  # closes the list only
        await expect(box).to_be_hidden()
        await composer.press_sequentially("name=")
        # The department given before is the context: Engineering's people, not Sales'.
        await expect(options.locator(".completion-label")).to_have_text(["Alice", "Bob", "Charlie"])
        assert await box.evaluate("b => b.getBoundingClientRect().width") <= viewport["width"]
        await composer.press("ArrowDown")
        await expect(options.nth(1)).to_have_attribute("aria-selected", "true")
        await composer.press("Tab")
        sent = "/everything:completable-prompt department=Engineering name=Bob "
        await expect(composer).to_have_value(sent)
        await expect(box).to_be_hidden()

        await composer.press("Enter")  # the list is closed: Enter sends
        await expect(page.locator("#messages .msg.assistant").last).to_have_text("promoted")
        session = await page.evaluate("sessionStorage.getItem('jarvis_session')")
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            history = (await http.get(f"/api/sessions/{session}/history")).json()
        said = [e["message"]["content"] for e in history if e["message"]["role"] == "user"]
        assert said == ["Please promote Bob to the head of the Engineering team."]
