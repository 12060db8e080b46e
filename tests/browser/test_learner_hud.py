"""The feedback learner's card in a real Chromium at 1440 and 390 px: a second 👎 on a topic
mutes it — the proactive card says so and until when, the learner card counts it and shows the
mute, which can be undone; "날씨 얘기는 이제 그만해" typed in the chat comes back as one line with
a button to the card, which shows the topic muted again; unmute and a kind's reset empty it (the
agent's file follows)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.browser.hud_pages import (
    csp_holds,
    no_horizontal_scroll,
    open_hud,
    say,
    shot,
    show_panels,
)
from tests.integration.thinking.test_learner_web import PROACTIVE, card
from tests.integration.thinking.test_speaking_first import add_loop
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of
from tests.support.live_server import live_server

__all__ = ["csp_holds"]


@pytest.mark.parametrize("size", ["desktop", "phone"], ids=["1440", "390"])
async def test_the_learner_card_shows_and_resets_what_was_learned(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    script = [card("날씨", "내일 비 소식이 있어요. 우산 챙기세요."), "알겠어요."]
    judge = tmp_path / "judge.yaml"
    judge.write_text("[]\n", encoding="utf-8")
    openloop = {
        "enabled": True,
        "model": {"provider": "faux", "model": "judge", "script": str(judge)},
    }
    # the topic was dismissed once before: one more 👎 mutes it
    (tmp_path / "proactive").mkdir()
    seeded = {"learner": {"dismissals": {"날씨": 1}}}
    (tmp_path / "proactive" / "main.json").write_text(json.dumps(seeded), encoding="utf-8")
    with live_server(
        tmp_path, script, scheduler=MANUAL, thinking={"proactive": PROACTIVE}, openloop=openloop
    ) as server:
        service = unattended_of(server)
        page, _ = await open_hud(browser, server.launch_url(lang="ko"), size)
        await expect(page.locator('#proactive-card[data-live="1"]')).to_be_attached()
        now = service.app.clock.now_ms()
        await on_server(server, add_loop(service.app, "L1", "날씨 확인", now + 30 * 60_000))
        [result] = await on_server(server, service.speaker.tick(now))
        assert result.reason == "spoke"
        await show_panels(page)
        learner = page.locator("#learner-card")
        main = learner.locator('.learner-agent[data-agent="main"]')
        dismissed = main.locator('li.learner-dismissed[data-topic="날씨"]')
        await expect(dismissed).to_contain_text("👎 날씨")

        # 👎 on the card (its topic dismissed once before): the topic is muted, the card says
        # so and until when, and the learner card counts it and shows the mute
        item = page.locator('#proactive li.proactive-item[data-id^="proactive:"]')
        await item.locator(".proactive-thumbs_down").click()
        await expect(item.locator(".proactive-note")).to_contain_text("🔇 ‘날씨’ 얘기는")
        kind = main.locator('li.learner-kind[data-kind="reminder"]')
        await expect(kind.locator(".learner-counts")).to_contain_text("👎 1")
        await expect(kind.locator(".learner-threshold")).to_have_text("기준 0.70 → 0.70")
        muted = main.locator('li.learner-muted[data-topic="날씨"]')
        await expect(muted).to_contain_text("🔇 날씨")
        await muted.locator(".learner-unmute").click()
        await expect(muted).to_have_count(0)

        # in words: one line in the chat, a button to the card; the topic is muted again
        if size == "phone":  # the drawer covers the chat on a phone
            await page.keyboard.press("Escape")
        await say(page, "날씨 얘기는 이제 그만해")
        note = page.locator(".msg.learner-note")
        await expect(note).to_contain_text("알겠어요 — 날씨 얘기는")
        await expect(page.locator(".msg.assistant").last).to_have_text("알겠어요.")
        await shot(page, f"learner-note-{size}")
        assert await no_horizontal_scroll(page)
        await note.locator(".learner-open").click()
        await show_panels(page)
        await expect(muted).to_contain_text("🔇 날씨")
        await expect(kind.locator(".learner-counts")).to_contain_text("그만 0")  # 👎 came first
        await learner.scroll_into_view_if_needed()
        await shot(page, f"learner-card-{size}")
        assert await no_horizontal_scroll(page)

        # unmute, then reset the kind: the card and the file are empty again
        await muted.locator(".learner-unmute").click()
        await expect(muted).to_have_count(0)
        await kind.locator(".learner-reset-kind").click()
        await expect(main.locator(".learner-none")).to_be_visible()
        saved = json.loads((tmp_path / "proactive" / "main.json").read_text(encoding="utf-8"))
        assert saved["learner"]["muted_until_ms"] == {} and saved["learner"]["kinds"] == {}
