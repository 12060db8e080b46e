"""Two real `jarvis serve` processes on one PostgreSQL: the modal on B's HUD unblocks A's turn."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playwright.async_api import Browser, Page, expect

from tests.support.live_server import Tab
from tests.support.processes import LAUNCH_TOKEN, bash, healthy, serve


async def open_hud(browser: Browser, url: str) -> Page:
    page = await (await browser.new_context()).new_page()
    await page.goto(url)
    await expect(page.locator("#status.on")).to_be_visible()
    return page


async def test_allow_clicked_on_b_runs_the_tool_in_a(
    browser: Browser, dsn: str, tmp_path: Path
) -> None:
    with (
        serve(tmp_path / "a", dsn, [bash("echo crossed-over"), "done on A"]) as (a, _),
        serve(tmp_path / "b", dsn, ["unused"]) as (b, _),
    ):
        await asyncio.gather(healthy(a), healthy(b))
        tab_a = await Tab.open(f"ws://{a}/ws")
        session = (await tab_a.next("session"))["session"]["id"]
        page = await open_hud(browser, f"http://{b}/?token={LAUNCH_TOKEN}&session={session}")
        assert await page.evaluate("sessionStorage.getItem('jarvis_session')") == session

        await tab_a.send(type="prompt", text="run it")
        request = await tab_a.next("approval_request")
        assert request["tool"] == "bash"
        modal = page.locator("#modal")
        await expect(modal).to_be_visible()
        await expect(page.locator("#modal-args dd")).to_have_text("echo crossed-over")

        await page.click("#modal-buttons button[data-answer=allow]")
        await expect(modal).to_be_hidden()
        resolved = await tab_a.next("approval_resolved")
        assert (resolved["id"], resolved["status"]) == (request["id"], "allow")
        end = await tab_a.next("tool_execution_end")
        assert not end["is_error"], end
        assert "crossed-over" in end["result_preview"]
        finished = await tab_a.next("agent_end")
        assert finished["ended_by"] == "answer"
        assert finished["final_message"]["content"] == "done on A"
        await tab_a.close()
