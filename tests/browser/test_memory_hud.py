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


async def test_a_stated_fact_is_semantic_memory_on_the_card_and_can_be_forgotten(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, ["Noted.", "You live in Busan."]) as server:
        first = await open_hud(browser, server.launch_url(lang="en"))
        await say(first, "I live in Busan. If I lived in Seoul I would be happier.")
        await expect(first.locator("#messages .msg.assistant").last).to_contain_text("Noted.")
        await first.context.close()

        fresh = await open_hud(browser, server.launch_url(lang="en"))  # a later session
        await say(fresh, "where do I live?")
        await expect(fresh.locator("#messages .msg.assistant").last).to_contain_text("Busan")
        semantic = fresh.locator("#memory-list .memory-item.kind-semantic")
        await expect(semantic).to_have_count(1)  # the hypothetical is not a fact
        await expect(semantic).to_contain_text("semantic · I live in Busan.")
        await expect(semantic.locator(".recall-reason")).to_contain_text("shares: live")
        await semantic.get_by_role("button").click()
        await expect(semantic).to_have_count(0)
        await fresh.context.close()
