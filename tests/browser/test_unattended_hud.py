"""The HUD's unattended parts in a real Chromium: the pre-approval window (a void grant shows
the seed's reason and the owner re-approves) and an AGENDA reminder arriving in an open tab."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect

from jarvis.agent_layer.openloop.openloop_types import OpenLoop
from tests.browser.test_hud import open_hud as open_page
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of, write_schedule
from tests.support.live_server import live_server


async def open_hud(browser: Browser, url: str) -> Page:
    """The HUD once its window listens for proactive messages (they reach windows that are
    open, so a tick must come after this); no session exists before the first message."""
    page = await open_page(browser, url)
    await expect(page.locator('#proactive-card[data-live="1"]')).to_be_attached()
    return page


async def test_the_preapproval_window_shows_a_void_grant_and_its_reason(
    browser: Browser, tmp_path: Path
) -> None:
    write_schedule(tmp_path, "cleanup", tools=["bash"], prompt="임시 파일 정리", enabled=False)
    with live_server(tmp_path, ["unused"], scheduler=MANUAL) as server:
        service = unattended_of(server)
        await on_server(
            server, service.preapprovals.grant(service.schedule("cleanup"), ["bash"], "local")
        )
        # The owner approved; then the prompt changed: the grant no longer counts.
        write_schedule(tmp_path, "cleanup", tools=["bash"], prompt="모든 파일 삭제", enabled=False)
        page = await open_hud(browser, server.launch_url(lang="ko"))
        row = page.locator('#schedules li.schedule[data-id="cleanup"]')
        await expect(row).to_contain_text("꺼짐")
        await row.locator("button", has_text="켜기").click()  # refused: opens the window
        window = page.locator("#preapproval")
        await expect(window).to_be_visible()
        tool = window.locator('li.preapproval-tool[data-tool="bash"]')
        await expect(tool).to_have_class("preapproval-tool void")
        await expect(tool.locator(".void-reason")).to_have_text("정의 내용이 바뀌어 이전 승인 만료")
        await expect(window.locator(".hint")).to_contain_text("TOOL_APPROVAL_REQUIRED")
        await page.click("#preapproval-grant")
        await expect(tool).to_have_class("preapproval-tool granted")
        await expect(page.locator("#preapproval-grant")).to_be_disabled()
        await page.click("#preapproval .modal-foot button.ghost")
        await row.locator("button", has_text="켜기").click()
        await expect(row).to_contain_text("켜짐")


async def test_a_reminder_arrives_in_the_open_tab(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, ["unused"], scheduler=MANUAL) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None
        page = await open_hud(browser, server.launch_url(lang="ko"))
        # nothing to show yet: the proactive and goal cards take no room
        await expect(page.locator("#proactive-card")).to_be_hidden()
        await expect(page.locator("#goals-card")).to_be_hidden()
        now = service.app.clock.now_ms()
        loop = OpenLoop(
            id="loop-report",
            agent_id="main",
            user_id="local",
            session_id="s",
            description="분기 보고서 초안 보내기",
            due_ms=now + 60_000,
            created_ms=now - 7_200_000,
            updated_ms=now,
        )
        await on_server(server, service.app.openloops.store.save([loop]))
        await on_server(server, runtime.tick(now + 60_000 - 3_600_000))  # one hour before
        item = page.locator("#proactive li.proactive-item")
        await expect(item).to_have_count(1)
        await expect(page.locator("#proactive-card")).to_be_visible()
        await expect(item).to_contain_text("60분 뒤 기한: 분기 보고서 초안 보내기")
        await on_server(server, runtime.tick(now + 60_000))  # at the due time
        await expect(item).to_have_count(2)
        await expect(item.first).to_contain_text("지금 기한입니다")


async def test_goal_progress_shows_and_the_person_pauses_it(
    browser: Browser, tmp_path: Path
) -> None:
    goal = tmp_path / "goals" / "tidy.json"
    goal.parent.mkdir(parents=True)
    goal.write_text('{"id": "tidy", "objective": "받은편지함 정리", "max_turns": 5}', "utf-8")
    with live_server(tmp_path, ["메일 20통을 분류했습니다"], scheduler=MANUAL) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None
        page = await open_hud(browser, server.launch_url(lang="ko"))
        (run_id,) = await on_server(server, runtime.tick(0))
        await on_server(server, service.engine.wait(run_id))
        row = page.locator('#goals li.goal[data-id="tidy"]')
        await expect(row).to_contain_text("1/5")
        await expect(row.locator(".goal-log")).to_have_text("메일 20통을 분류했습니다")
        await row.locator('button[data-status="paused"]').click()
        await expect(page.locator('#goals li.goal[data-id="tidy"]')).to_have_class(
            "schedule goal paused"
        )
        assert await on_server(server, runtime.tick(0)) == []  # paused: no further turn
