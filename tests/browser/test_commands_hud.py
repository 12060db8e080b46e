"""Typing `/` in the HUD composer (Chromium, 1440 px and 390 px) offers every slash command of
the server's command table with its one-line help — the same table the terminal completes from —
and a chosen command runs on the server: `/status` names the model answering."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.browser.hud_pages import DESKTOP, PHONE
from tests.browser.test_hud_access_and_modal import open_hud
from tests.support.live_server import live_server

SKILL = "---\nname: greet\ndescription: greets someone\n---\nSay hello to {{args}}.\n"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1440", "390"])
async def test_slash_offers_the_table_with_help_and_status_names_the_model(
    browser: Browser, tmp_path: Path, viewport: dict[str, int]
) -> None:
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "greet.md").write_text(SKILL, "utf-8")
    with live_server(tmp_path, ["hi"]) as server:
        page = await open_hud(browser, server.launch_url(), viewport)
        box, composer = page.locator("#completions"), page.locator("#input")
        options = box.locator("[role=option]")
        await composer.press_sequentially("/")
        await expect(options.filter(has_text="/greet")).to_contain_text("greets someone")
        await expect(options.filter(has_text="/exit")).to_have_count(0)  # the terminal's
        await composer.press_sequentially("sta")
        await expect(options).to_have_count(1)
        await expect(options.first).to_contain_text("지금 답하는 모델")  # its help, in Korean
        await composer.press("Tab")
        await expect(composer).to_have_value("/status ")
        await composer.press("Enter")
        await expect(page.locator("#messages .msg.system").last).to_contain_text("faux · faux")
