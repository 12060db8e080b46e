"""HUD item 5 in Chromium: the sessions list (sidebar, a drawer on phones)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, expect

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

        page.on("dialog", lambda d: pytest.fail(f"a browser dialog: {d.message}"))
        # Rename in the row: a text box, Enter keeps it (Esc would put the row back).
        await page.locator("#session-list li.on .rename").click()
        edit = page.locator("#session-list li.on .session-edit input")
        await expect(edit).to_be_focused()
        await edit.fill("Renamed beta")
        await edit.press("Enter")
        await expect(page.locator("#session-list li.on .session-title")).to_have_text(
            "Renamed beta"
        )
        # Search reads titles and message text (the server answers).
        await page.fill("#session-search", "alpha")
        await expect(page.locator("#session-list li")).to_have_count(1)
        await page.fill("#session-search", "b1")  # only in beta's answer
        await expect(page.locator("#session-list li .session-title")).to_have_text(["Renamed beta"])
        await expect(page.locator("#session-list li .session-snippet")).to_have_text("b1")
        await page.fill("#session-search", "")
        await expect(page.locator("#session-list li")).to_have_count(2)
        await shot(page, "sessions-desktop")

        # Delete asks in the row: Cancel keeps it, Delete removes it.
        await page.locator("#session-list li.on .delete").click()
        ask = page.locator("#session-list li.on .session-confirm")
        await expect(ask).to_contain_text("Renamed beta")
        await ask.get_by_role("button", name="취소").click()
        await expect(page.locator("#session-list li")).to_have_count(2)  # not confirmed: kept
        await page.locator("#session-list li.on .delete").click()
        await page.locator("#session-list li.on .confirm-delete").click()
        await expect(page.locator("#session-list li")).to_have_count(1)
        assert [s["id"] for s in await sessions_on_server(server.url, server.headers)] == [first]
        # The chat of the deleted session is gone; an empty chat suggests what to try.
        await expect(page.locator("#messages .welcome .suggestion")).to_have_count(4)
        await page.locator("#messages .suggestion").first.click()
        await expect(page.locator("#input")).to_have_value("파일 목록 보여줘")

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
