"""The Focus panel in a real Chromium at 1440×900 and 390×844 (docs/focus.md): a task started
from the HUD (`/focus …` typed in the chat on a desktop, the panel's own box on a phone), run by
the scripted model one tick at a time; the panel fills as its steps finish, a reload shows the
same (read from the task's files), pause and resume go through the same functions as `/focus`
and `jarvis focus`, Markdown is sanitised, nothing scrolls sideways, and on a phone every
control in the panel is at least 44 px."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from jarvis.app.infra import build_app
from jarvis.app.settings import Settings
from jarvis.core.focus.store import FocusStore
from tests.browser.hud_pages import (
    controls_smaller_than,
    csp_holds,
    no_horizontal_scroll,
    open_hud,
    say,
    shot,
)
from tests.browser.hud_pages import show_panels as open_drawer
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of
from tests.support.live_server import LiveServer, live_server

__all__ = ["csp_holds"]
PLAN = json.dumps(["범위 정하기", "자료 읽기", "보고서 쓰기"], ensure_ascii=False)
STEPS = [
    "- DBOS는 워크플로 id로 한 번만 실행 https://example.org/dbos?utm_source=x\n"
    "- Temporal은 이벤트 기록을 다시 재생 https://example.org/temporal",
    # raw HTML in a finding must stay text: the panel's Markdown has HTML off + DOMPurify
    "- 재시도는 멱등 키로 <img src=x onerror=alert(1)> https://EXAMPLE.org/dbos#top",
    "- 결론: 고정 id가 가장 단순하다",
]


async def tick(server: LiveServer) -> list[str]:
    service = unattended_of(server)
    runtime = service.runtime
    assert runtime is not None
    return await on_server(server, runtime.tick(service.app.clock.now_ms()))


@pytest.mark.parametrize("size", ["desktop", "phone"], ids=["1440", "390"])
async def test_a_focus_task_fills_its_panel_survives_a_reload_and_pauses(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    least = 44 if size == "phone" else 24
    with live_server(tmp_path, [PLAN, *STEPS], scheduler=MANUAL) as server:
        page, _ = await open_hud(browser, server.launch_url(lang="ko"), size)
        card = page.locator("#focus-card")
        if size == "desktop":
            await say(page, "/focus 내구성 워크플로 세 가지 비교")
        else:
            await open_drawer(page)
            await card.locator(".focus-start input").fill("내구성 워크플로 세 가지 비교")
            await card.locator(".focus-start button").click()
        await expect(card.locator(".focus-objective")).to_have_text("내구성 워크플로 세 가지 비교")
        await expect(card.locator(".focus-state")).to_have_text("계획 중")
        await expect(card.locator(".focus-busy")).to_be_visible()
        [task] = FocusStore(tmp_path).tasks()

        # the planning call: the plan tab lists three steps, none done
        assert await tick(server) == [f"focus:{task.id}:plan"]
        await expect(card.locator(".focus-state")).to_have_text("다음 단계 대기")
        await expect(card.locator(".focus-body li")).to_have_count(3)
        await expect(card.locator(".focus-busy")).to_be_hidden()
        await expect(card.locator(".focus-progress")).to_have_text("0/3")

        # step 1: the plan marks it done, the analysis and references tabs fill
        assert await tick(server) == [f"focus:{task.id}:1"]
        await expect(card.locator(".focus-progress")).to_have_text("1/3")
        await expect(card.locator(".focus-body li").first).to_contain_text("☑ 범위 정하기")
        await card.locator('.focus-tab[data-area="analysis"]').click()
        await expect(card.locator(".focus-body li")).to_have_count(2)
        await expect(card.locator(".focus-body")).to_contain_text("DBOS는 워크플로 id로")
        await card.locator('.focus-tab[data-area="references"]').click()
        await expect(card.locator(".focus-body a")).to_have_count(2)
        await expect(card.locator(".focus-body")).to_contain_text("[1] https://example.org/dbos")
        assert await no_horizontal_scroll(page)
        await shot(page, f"focus-step1-{size}")

        # a reload reads the files again: the same task, state and tabs
        await page.reload()
        await expect(page.locator("#status.on")).to_be_visible()
        await open_drawer(page)
        await expect(card.locator(".focus-objective")).to_have_text("내구성 워크플로 세 가지 비교")
        await expect(card.locator(".focus-progress")).to_have_text("1/3")
        await card.locator('.focus-tab[data-area="log"]').click()
        await expect(card.locator(".focus-body")).to_contain_text("step 1 done")

        # pause: the ticker starts nothing for it; resume: the next step runs
        await card.locator(".focus-pause").click()
        await expect(card.locator(".focus-state")).to_have_text("멈춤")
        await expect(card.locator(".focus-resume")).to_be_visible()
        assert FocusStore(tmp_path).load(task.id).status == "paused"  # type: ignore[union-attr]
        assert await tick(server) == []
        assert await controls_smaller_than(page, "#focus-card", least) == []
        await shot(page, f"focus-paused-{size}")
        await card.locator(".focus-resume").click()
        await expect(card.locator(".focus-state")).to_have_text("다음 단계 대기")
        assert await tick(server) == [f"focus:{task.id}:2"]
        await expect(card.locator(".focus-progress")).to_have_text("2/3")

        # the re-cited URL keeps its number; raw HTML in a finding stays text
        await card.locator('.focus-tab[data-area="analysis"]').click()
        await expect(card.locator(".focus-body")).to_contain_text("<img src=x onerror=alert(1)>")
        await expect(card.locator(".focus-body img")).to_have_count(0)
        await expect(card.locator(".focus-body li").last).to_contain_text("[1]")

        assert await tick(server) == [f"focus:{task.id}:3"]
        await expect(card.locator(".focus-state")).to_have_text("완료")
        await expect(card.locator(".focus-actions button")).to_have_count(0)
        await card.locator('.focus-tab[data-area="plan"]').click()
        await expect(card.locator(".focus-body li", has_text="☑")).to_have_count(3)
        assert await no_horizontal_scroll(page)
        assert await controls_smaller_than(page, "#focus-card", least) == []
        await shot(page, f"focus-done-{size}")


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_readme_tour_focus_step(browser: Browser, tmp_path: Path, lang: str) -> None:
    """README tour step 9 against the demo as shipped (its ticker on): `/focus …` in the chat,
    the card plans and ticks off the demo's six steps, its tabs fill, a reload shows the same."""
    objective = {"ko": "내구성 워크플로 비교", "en": "compare durable workflows"}[lang]
    done = {"ko": "완료", "en": "done"}[lang]
    config = Settings(
        home=tmp_path,
        workspace=tmp_path,
        web={"token": secrets.token_urlsafe(16)},
        scheduler={"tick_sec": 0.2},
    )
    server = LiveServer(build_app(config, demo=True))
    server.start()
    try:
        page, _ = await open_hud(browser, server.launch_url(lang=lang))
        await say(page, f"/focus {objective}")
        card = page.locator("#focus-card")
        await expect(card.locator(".focus-objective")).to_have_text(objective)
        await expect(card.locator(".focus-state")).to_have_text(done)
        await expect(card.locator(".focus-progress")).to_have_text("6/6")
        await card.locator('.focus-tab[data-area="references"]').click()
        await expect(card.locator(".focus-body a").first).to_be_visible()
        await page.reload()
        await expect(card.locator(".focus-progress")).to_have_text("6/6")
        await shot(page, f"focus-tour-{lang}")
    finally:
        server.stop()
