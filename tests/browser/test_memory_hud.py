"""The MEMORY card shows words as typed (once `&amp;&amp;`) and why an item was recalled."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from tests.browser.test_hud_access_and_modal import open_hud, say
from tests.support.live_server import live_server

TYPED = 'parking spot B12 && "two" <b>bold</b>'


async def test_the_memory_card_shows_raw_words_and_the_recall_reason(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, ["noted", "It is B12."]) as server:
        first = await open_hud(browser, server.launch_url(lang="en"))
        await say(first, TYPED)
        card = first.locator("#memory-list")
        await expect(card).to_contain_text(TYPED)  # as typed: no &amp; and no bold element
        await expect(card.locator("b")).to_have_count(0)
        await first.context.close()

        fresh = await open_hud(browser, server.launch_url(lang="en"))  # a new session
        await say(fresh, "which parking spot?")
        await expect(fresh.locator("#messages .msg.assistant").last).to_contain_text("It is B12.")
        reason = fresh.locator("#memory-list .recall-reason")
        await expect(reason).to_have_count(1)
        await expect(reason).to_contain_text("Recalled because:")
        await expect(reason).to_contain_text("shares: parking, spot")
        await fresh.context.close()
