"""The HUD in a real browser: approvals across tabs, reload, deny, timeout, always, revoke, XSS."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, expect

from jarvis.common.i18n import t
from tests.support.live_server import live_server


def bash(command: str) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


async def open_hud(browser: Browser, url: str) -> Page:
    """Open the URL `jarvis serve` printed (`server.launch_url()`) in a fresh browser."""
    page = await (await browser.new_context(locale="ko-KR")).new_page()
    await page.goto(url)
    await expect(page.locator("#status.on")).to_be_visible()
    return page


async def say(page: Page, text: str) -> None:
    await page.fill("#input", text)
    await page.press("#input", "Enter")


async def session_id(page: Page) -> str:
    return str(await page.evaluate("sessionStorage.getItem('jarvis_session')"))


async def test_two_tabs_both_show_the_modal_and_one_answer_closes_both(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, [bash("echo from-the-hud"), "finished"]) as server:
        first = await open_hud(browser, server.launch_url())
        await say(first, "run something")
        await expect(first.locator("#modal")).to_be_visible()
        second = await open_hud(browser, server.launch_url(session=await session_id(first)))
        await expect(second.locator("#modal")).to_be_visible()
        await expect(second.locator("#modal-args dd")).to_have_text("echo from-the-hud")
        await expect(second.locator("#modal-buttons button")).to_have_count(3)
        await expect(second.locator("#modal-pattern")).to_contain_text("bash echo from-the-hud")
        await second.click("#modal-buttons button[data-answer=allow]")
        await expect(first.locator("#modal")).to_be_hidden()
        await expect(second.locator("#modal")).to_be_hidden()
        await expect(first.locator(".msg.assistant").last).to_have_text("finished")
        await expect(first.locator("#activity")).to_contain_text("한 번 허용")


async def test_reload_while_pending_shows_the_modal_again_and_enter_allows(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, [bash("ls"), "listed"]) as server:
        page = await open_hud(browser, server.launch_url())
        await say(page, "list")
        await expect(page.locator("#modal")).to_be_visible()
        await page.reload()
        await expect(page.locator("#modal")).to_be_visible()
        await page.keyboard.press("Enter")
        await expect(page.locator("#modal")).to_be_hidden()
        await expect(page.locator(".msg.assistant").last).to_have_text("listed")


async def test_deny_shows_the_fixed_line(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, [bash("rm -r build")]) as server:
        page = await open_hud(browser, server.launch_url())
        await say(page, "clean up")
        await page.click("#modal-buttons button[data-answer=deny]")
        await expect(page.locator(".msg.assistant").last).to_have_text(
            t("approval.denied_turn_end", tools="bash")
        )
        await expect(page.locator(".msg.error")).to_have_count(0)  # no second model call


async def test_timeout_line_and_activity_entry(browser: Browser, tmp_path: Path) -> None:
    with live_server(
        tmp_path, [bash("make deploy")], security={"approval_timeout_sec": 1.0}
    ) as server:
        page = await open_hud(browser, server.launch_url())
        await say(page, "deploy")
        await expect(page.locator("#modal-countdown")).to_contain_text("초 남음")
        await expect(page.locator("#modal")).to_be_hidden()
        await expect(page.locator(".msg.assistant").last).to_have_text(
            t("approval.timeout_turn_end", tools="bash")
        )
        activity = page.locator("#activity")
        await expect(activity).to_contain_text("bash make deploy — 시간 초과로 거부")


async def test_always_then_no_modal_then_revoke_asks_again(
    browser: Browser, tmp_path: Path
) -> None:
    script = [
        bash("git status"),
        "one",
        bash("git status --short"),
        "two",
        bash("git status"),
        "three",
    ]
    with live_server(tmp_path, script) as server:
        page = await open_hud(browser, server.launch_url())
        await say(page, "status")
        await page.click("#modal-buttons button[data-answer=always]")
        await expect(page.locator(".msg.assistant").last).to_have_text("one")
        await expect(page.locator("#rules")).to_contain_text("bash git status")
        await say(page, "short status")
        await expect(page.locator(".msg.assistant").last).to_have_text("two")
        await expect(page.locator("#activity")).to_contain_text("(approvals/main.yaml)")
        await page.click("#rules button")
        await expect(page.locator("#rules")).to_contain_text("기억된 규칙이 없습니다")
        await say(page, "status again")
        await expect(page.locator("#modal")).to_be_visible()


async def test_model_output_is_rendered_as_text(browser: Browser, tmp_path: Path) -> None:
    evil = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2"> done'
    with live_server(tmp_path, [evil]) as server:
        page = await open_hud(browser, server.launch_url())
        await say(page, "hello")
        bubble = page.locator(".msg.assistant").last
        await expect(bubble).to_have_text(evil)
        assert await page.evaluate("window.pwned") is None
        assert await bubble.locator("img, script").count() == 0


async def test_agenda_card_done_dismiss_and_revive(browser: Browser, tmp_path: Path) -> None:
    judge = ["분기 보고서 초안을 팀장님께 보내기 (근거: 분기 보고서 초안을 팀장님께 보내야 해)"]
    with live_server(tmp_path, ["알겠습니다."], judge=judge) as server:
        page = await open_hud(browser, server.launch_url())
        await say(page, "내일 오후 3시까지 분기 보고서 초안을 팀장님께 보내야 해")
        item = page.locator("#agenda li:not(.closed)")
        await expect(item).to_contain_text("분기 보고서 초안을 팀장님께 보내기")
        await expect(item).to_contain_text("15:00")
        await item.locator("button[data-status=done]").click()
        closed = page.locator("#agenda li.closed")
        await expect(closed).to_have_count(1)
        await closed.locator("button[data-status=open]").click()
        await expect(page.locator("#agenda li:not(.closed)")).to_have_count(1)
        await page.locator("#agenda li:not(.closed) button[data-status=dismissed]").click()
        await expect(page.locator("#agenda li.closed")).to_have_count(1)
        await expect(page.locator("#agenda li:not(.closed)")).to_have_count(0)


async def test_a_broken_tool_file_is_reported_in_activity(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        (tmp_path / "tools").mkdir()
        (tmp_path / "tools" / "broken.py").write_text("def execute(:\n", encoding="utf-8")
        for _ in range(200):
            if any(not s.ok for s in server.assembly.extensions.status()):
                break
            await asyncio.sleep(0.02)
        page = await open_hud(browser, server.launch_url())
        await expect(page.locator("#activity li.bad")).to_contain_text("broken.py")
