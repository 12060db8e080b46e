"""The thinking layer in a real Chromium: a filler is a dim status line in the chat while the
model is slow to start, replaced by the answer, kept out of the proactive inbox and the history."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from jarvis.core.thinking.fillers import filler_lines
from tests.browser.hud_pages import csp_holds  # noqa: F401  (autouse: no CSP breaks, no throws)
from tests.browser.test_hud import open_hud, say
from tests.support.live_server import live_server


async def test_a_filler_line_shows_while_the_model_is_slow_and_the_answer_replaces_it(
    browser: Browser, tmp_path: Path
) -> None:
    script = ["첫 답입니다.", {"text": "두 번째 답입니다.", "delay_sec": 3}]
    # Every measured wait counts as long: the second turn (one wait measured) gets a filler.
    thinking = {"filler_after_sec": 1e-9}
    with live_server(tmp_path, script, thinking=thinking) as server:
        page = await open_hud(browser, server.launch_url())
        await say(page, "README 열어줘")
        await expect(page.locator(".msg.assistant").last).to_have_text("첫 답입니다.")
        await expect(page.locator(".msg.filler")).to_have_count(0)  # no wait measured before
        await say(page, "README 다시 열어줘")
        filler = page.locator(".msg.filler")
        await expect(filler).to_have_text(filler_lines("first_round", "ko")[0])
        await expect(page.locator(".msg.assistant").last).to_have_text("두 번째 답입니다.")
        await expect(filler).to_have_count(0)
        await expect(page.locator("#proactive li")).to_have_count(0)  # not an inbox message
        await page.reload()
        await expect(page.locator(".msg.assistant").last).to_have_text("두 번째 답입니다.")
        await expect(page.locator(".msg.filler")).to_have_count(0)  # never in the history
