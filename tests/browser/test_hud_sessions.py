"""HUD item 5 in Chromium: the sessions list (sidebar, a drawer on phones)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from playwright.async_api import Browser, Dialog, expect

from tests.browser.hud_pages import (
    csp_holds,  # noqa: F401  (autouse)
    open_hud,
    say,
    session_of,
    shot,
)
from tests.support.live_server import live_server


async def sessions_on_server(url: str, headers: dict[str, str]) -> list[dict[str, object]]:
    async with httpx.AsyncClient(base_url=url, headers=headers) as http:
        rows: list[dict[str, object]] = (await http.get("/api/sessions")).json()
        return rows


async def test_opening_the_page_makes_no_session_and_the_first_message_does(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, ["first answer", "second answer"]) as server:
        page, violations = await open_hud(browser, server.launch_url())
        await page.reload()
        await expect(page.locator("#status.on")).to_be_visible()
        assert await sessions_on_server(server.url, server.headers) == []
        await say(page, "Plan the trip\nwith details")
        await expect(page.locator(".msg.assistant").last).to_have_text("first answer")
        item = page.locator("#session-list li")
        await expect(item).to_have_count(1)
        await expect(item.locator(".session-title")).to_have_text("Plan the trip")
        await expect(item).to_have_class("on")
        await expect(item.locator("time")).to_have_text(re.compile(r"\d\d:\d\d"))
        assert f"session={await session_of(page)}" in page.url  # a deep link to what is shown
        assert violations == []


async def test_rename_search_delete_and_deep_link(browser: Browser, tmp_path: Path) -> None:
    # Two windows' worth of page loads in well under a minute: with every feature card loading,
    # that passes the default per-minute request limit (429 for the history), see the report.
    limit = {"rate_limit_per_minute": 1000}
    with live_server(tmp_path, ["a1", "b1"], security=limit) as server:
        page, _ = await open_hud(browser, server.launch_url())
        await say(page, "alpha topic")
        await expect(page.locator(".msg.assistant").last).to_have_text("a1")
        first = await session_of(page)
        await page.keyboard.press("Control+k")  # a new session, made by the next message
        await expect(page.locator(".msg")).to_have_count(0)
        await say(page, "beta topic")
        await expect(page.locator(".msg.assistant").last).to_have_text("b1")
        await expect(page.locator("#session-list li")).to_have_count(2)

        async def rename(dialog: Dialog) -> None:
            await dialog.accept("Renamed beta")

        page.once("dialog", rename)
        await page.locator("#session-list li.on .rename").click()
        await expect(page.locator("#session-list li.on .session-title")).to_have_text(
            "Renamed beta"
        )
        await page.fill("#session-search", "alpha")
        await expect(page.locator("#session-list li")).to_have_count(1)
        await page.fill("#session-search", "")
        await shot(page, "sessions-desktop")

        async def cancel(dialog: Dialog) -> None:
            assert "Renamed beta" in dialog.message
            await dialog.dismiss()

        page.once("dialog", cancel)
        await page.locator("#session-list li.on .delete").click()
        await expect(page.locator("#session-list li")).to_have_count(2)  # not confirmed: kept

        async def confirm(dialog: Dialog) -> None:
            await dialog.accept()

        page.once("dialog", confirm)
        await page.locator("#session-list li.on .delete").click()
        await expect(page.locator("#session-list li")).to_have_count(1)
        assert [s["id"] for s in await sessions_on_server(server.url, server.headers)] == [first]

        deep = await (await browser.new_context(locale="ko-KR")).new_page()
        await deep.goto(server.launch_url(session=first))
        await expect(deep.locator(".msg.assistant")).to_have_text(["a1"])
        await expect(deep.locator("#session-list li.on .session-title")).to_have_text("alpha topic")


async def test_on_a_phone_the_sessions_are_a_drawer(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, ["hello"]) as server:
        page, _ = await open_hud(browser, server.launch_url(), "phone")
        await say(page, "hi there")
        await expect(page.locator(".msg.assistant").last).to_have_text("hello")
        await expect(page.locator("#sessions")).not_to_be_in_viewport()
        await page.click("#menu")
        await expect(page.locator("#session-list li")).to_have_count(1)
        await expect(page.locator("#sessions")).to_be_in_viewport()
        await shot(page, "sessions-phone")
        await page.locator("#session-list li .session-open").click()
        await expect(page.locator("#sessions")).not_to_be_in_viewport()
