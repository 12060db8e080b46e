"""External sources in a real Chromium at 1440×900 and 390×844 (docs/sources.md): a source added
in the HUD's Sources card pointing at a feed site on 127.0.0.1 (pytest-httpserver, the loopback
setting the sources tests use) starts off and its status says "never polled"; the owner
pre-approves it from the card (on); its first poll's line shows; a new matching entry arrives
as one digest card in the proactive inbox; remove deletes the file. No sideways scroll, and on
a phone every control of the card is at least 44 px."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect
from pytest_httpserver import HTTPServer

from tests.browser.hud_pages import (
    controls_smaller_than,
    csp_holds,
    no_horizontal_scroll,
    open_hud,
    shot,
    show_panels,
)
from tests.integration.sources.feeds import FeedSite, Item
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of
from tests.support.live_server import live_server

__all__ = ["csp_holds"]
SECURITY = {"web_fetch_allow_private": True}
EVERY_MS = 15 * 60_000


@pytest.mark.parametrize("size", ["desktop", "phone"], ids=["1440", "390"])
async def test_a_source_added_granted_and_its_digest_arrives(
    browser: Browser, tmp_path: Path, httpserver: HTTPServer, size: str
) -> None:
    least = 44 if size == "phone" else 24
    site = FeedSite(
        items=[Item(f"g{i}", f"https://news.example/{i}", f"Story {i}") for i in range(3)]
    )
    url = site.serve(httpserver, "/feed")
    with live_server(tmp_path, [], scheduler=MANUAL, security=SECURITY) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None
        now = (int(time.time() * 1000) // EVERY_MS) * EVERY_MS + EVERY_MS

        async def tick() -> list[str]:
            nonlocal now
            now += 2 * EVERY_MS
            started = await on_server(server, runtime.tick(now))
            for run_id in started:
                await on_server(server, service.engine.wait(run_id))
            return started

        page, _ = await open_hud(browser, server.launch_url(lang="ko"), size)
        await expect(page.locator('#proactive-card[data-live="1"]')).to_be_attached()
        await show_panels(page)
        card = page.locator("#sources-card")
        await expect(card.locator("#sources li.sources-none")).to_have_text("지켜보는 곳이 없어요")
        await card.locator(".source-id").fill("news")
        await card.locator(".source-address").fill(url)
        await card.locator(".source-every").select_option("15 minutes")
        await card.locator(".source-match").fill("python, release")
        await card.locator(".sources-add button").click()
        row = card.locator('li.source[data-id="news"]')
        await expect(row.locator(".state")).to_have_text("꺼짐")
        await expect(row.locator(".source-line")).to_have_text("never polled")
        assert (tmp_path / "external_sources" / "news.yaml").exists()
        assert await tick() == []  # off: no poll, nothing reaches the site
        assert site.requests == []

        # the owner pre-approves web_fetch to 127.0.0.1 from the card: on
        await row.locator(".source-grant").click()
        await expect(row.locator(".state")).to_have_text("켜짐")
        await expect(row.locator(".source-grant")).to_have_count(0)
        polls = await tick()
        assert [p.split(":")[0] for p in polls] == ["extsrc"]
        await expect(row.locator(".source-line")).to_contain_text("first poll")
        assert await no_horizontal_scroll(page)
        assert await controls_smaller_than(page, "#sources-card", least) == []

        # a new matching entry: one digest card in the proactive inbox
        site.items.insert(0, Item("n1", "https://news.example/n1", "Python 3.15 released"))
        site.items.insert(1, Item("n2", "https://news.example/n2", "Gardening tips"))
        await tick()
        await expect(row.locator(".source-line")).to_contain_text("2 new, 0 updated, 1 to say")
        notes = await tick()
        assert any(n.startswith("extsrc-note:news:") for n in notes)
        digest = page.locator('#proactive li.proactive-item[data-id^="extsrc-note:news:"]')
        await expect(digest).to_have_count(1)
        await expect(digest).to_contain_text("Python 3.15 released")
        await expect(digest).not_to_contain_text("Gardening")
        await expect(page.locator("#proactive-card")).to_be_visible()
        assert await no_horizontal_scroll(page)
        await shot(page, f"sources-digest-{size}")

        # remove asks once more, then deletes the definition
        await row.locator(".source-remove").click()
        await expect(row.locator(".source-remove")).to_have_text("정말 삭제")
        await row.locator(".source-remove").click()
        await expect(row).to_have_count(0)
        assert not (tmp_path / "external_sources" / "news.yaml").exists()


@pytest.mark.parametrize("size", ["desktop", "phone"], ids=["1440", "390"])
async def test_the_owner_edits_notify_and_max_per_day_in_the_card(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    least = 44 if size == "phone" else 24
    path = tmp_path / "external_sources" / "news.yaml"
    path.parent.mkdir(parents=True)
    text = (
        "# mine\nurl: https://news.example/feed\nevery: 1 hour\nnotify: digest\nmax_per_day: 20\n"
    )
    path.write_text(text, encoding="utf-8")
    with live_server(tmp_path, []) as server:
        page, _ = await open_hud(browser, server.launch_url(lang="ko"), size)
        await show_panels(page)
        row = page.locator('#sources-card li.source[data-id="news"]')
        await expect(row.locator(".source-notify")).to_have_value("digest")
        await expect(row.locator(".source-max")).to_have_value("20")

        # a bad value: one line under the row, the file as it was
        await row.locator(".source-max").fill("0")
        await row.locator(".source-save").click()
        problem = row.locator(".source-edit-problem")
        await expect(problem).to_have_text(
            "max_per_day: Input should be greater than or equal to 1"
        )
        assert path.read_text(encoding="utf-8") == text
        assert await controls_smaller_than(page, "#sources-card", least) == []
        assert await no_horizontal_scroll(page)
        await shot(page, f"sources-edit-bad-{size}")

        # immediate, five a day: written, the comment kept, the card shows what the file says
        await row.locator(".source-notify").select_option("immediate")
        await row.locator(".source-max").fill("5")
        await row.locator(".source-save").click()
        await expect(problem).to_be_hidden()
        await expect(row.locator(".source-notify")).to_have_value("immediate")
        await expect(row.locator(".source-max")).to_have_value("5")
        saved = path.read_text(encoding="utf-8")
        assert saved == text.replace("digest", "immediate").replace("20", "5")
        assert await no_horizontal_scroll(page)
        await shot(page, f"sources-edit-{size}")
