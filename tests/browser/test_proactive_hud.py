"""Speaking first and "About me" in a real Chromium at 1440 and 390 px: a due AGENDA item makes
a proactive card with 👍 / 👎 / "do it"; "do it" sends an ordinary message whose tool call waits
for approval like any other; the About me card adds, pins, edits and forgets a fact (the file
changes with it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.browser.hud_pages import bash, csp_holds, no_horizontal_scroll, open_hud, show_panels
from tests.integration.thinking.test_speaking_first import HIGH, add_loop, afternoon
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of
from tests.support.live_server import live_server

__all__ = ["csp_holds"]
CARD = [
    {
        "kind": "reminder",
        "utterance": "보고서 초안, 지금 같이 볼까요?",
        "topic": "보고서",
        "ratings": HIGH,
    }
]


@pytest.mark.parametrize("size", ["desktop", "phone"], ids=["1440", "390"])
async def test_a_proactive_card_and_about_me(browser: Browser, tmp_path: Path, size: str) -> None:
    script = [json.dumps(CARD, ensure_ascii=False), bash("touch done.txt"), "네."]
    settings = {
        "openloop": {
            "enabled": True,
            "model": {"provider": "faux", "model": "judge", "script": str(tmp_path / "judge.yaml")},
        }
    }
    (tmp_path / "judge.yaml").write_text("[]\n", encoding="utf-8")
    with live_server(
        tmp_path, script, scheduler=MANUAL, thinking={"proactive": {"enabled": True}}, **settings
    ) as server:
        service = unattended_of(server)
        page, _ = await open_hud(browser, server.launch_url(lang="ko"), size)
        await expect(page.locator('#proactive-card[data-live="1"]')).to_be_attached()
        now = afternoon(service.app)
        await on_server(server, add_loop(service.app, "L1", "보고서 초안 보내기", now + 1_800_000))
        [result] = await on_server(server, service.speaker.tick(now))
        assert result.reason == "spoke"
        await show_panels(page)
        card = page.locator('#proactive li.proactive-item[data-id^="proactive:"]')
        await expect(card).to_contain_text("보고서 초안, 지금 같이 볼까요?")
        await expect(card.locator(".proactive-actions button")).to_have_count(3)
        assert await no_horizontal_scroll(page)

        # About me: add, pin, edit, forget — the file follows
        about = page.locator("#about-me-card")
        await about.locator("select").select_option("name")
        await about.locator(".about-me-add input").fill("민준")
        await about.locator(".about-me-add button").click()
        fact = about.locator('li.fact[data-field="name"]')
        await expect(fact).to_contain_text("민준")
        await expect(fact.locator(".fact-meta")).to_contain_text("직접 고침")
        await fact.locator(".fact-pin-toggle").click()
        await expect(fact).to_have_class("fact active pinned")
        await fact.locator(".fact-edit").click()
        await fact.locator(".fact-editing input").fill("민수")
        await fact.locator(".fact-editing button[type=submit]").click()
        await expect(about.locator('li.fact[data-field="name"] .fact-value')).to_have_text("민수")
        stored = json.loads((tmp_path / "user_model.json").read_text())["people"]["local"]
        assert [(f["value"], f["status"]) for f in stored] == [
            ("민준", "retired"),
            ("민수", "active"),
        ]
        await about.locator('li.fact[data-field="name"] .fact-forget').click()
        await expect(about.locator("li.fact")).to_have_count(0)
        assert await no_horizontal_scroll(page)

        # "do it": an ordinary message; its tool call waits for approval like any other
        await card.locator(".proactive-do_it").click()
        await expect(page.locator("#modal")).to_be_visible()
        await expect(page.locator("#modal-args dd")).to_have_text("touch done.txt")
        assert not (tmp_path / "done.txt").exists()
        state = json.loads((tmp_path / "proactive" / "main.json").read_text())
        assert state["learner"]["kinds"]["reminder"] == {"counts": {"do_it": 1}, "moves": []}
        await expect(card.locator(".proactive-actions button").first).to_be_disabled()
