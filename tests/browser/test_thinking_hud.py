"""The thinking layer in a real Chromium: a filler is a dim status line in the chat while the
model is slow to start, replaced by the answer, kept out of the proactive inbox and the history."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, expect

from jarvis.core.thinking.fillers import filler_lines
from tests.browser import hud_pages
from tests.browser.hud_pages import (
    csp_holds,  # noqa: F401  (autouse: no CSP breaks, no throws)
    no_horizontal_scroll,
    session_of,
    shot,
    show_panels,
)
from tests.browser.test_hud import open_hud, say
from tests.integration.thinking import test_tool_fillers as tool_fillers
from tests.integration.thinking.test_speaking_first import HIGH, WEAK, afternoon
from tests.integration.thinking.test_speaking_first_events import finish_goal
from tests.integration.thinking.test_tool_fillers import RULES
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of
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


async def test_a_slow_tool_gets_a_filler_naming_it_until_the_call_ends(
    browser: Browser, tmp_path: Path
) -> None:
    """The tool's filler comes just after the call starts (the start does not wipe it) and goes
    when the call ends; the answer follows and nothing of it is in the history."""
    (tmp_path / "approvals.yaml").write_text(RULES)
    script = [tool_fillers.bash("git status"), "깨끗해요."]
    with live_server(tmp_path, script) as server:
        waits = tool_fillers.builder(server).waits
        waits.record("tool:bash:git status", 6.0)  # it ran slowly here before
        page = await open_hud(browser, server.launch_url(lang="ko"))
        await page.evaluate(
            """() => {
              window.fillersSeen = [];
              const seen = (changes) => {
                for (const c of changes) for (const n of c.addedNodes)
                  if (n.classList && n.classList.contains("filler"))
                    window.fillersSeen.push(n.textContent);
              };
              new MutationObserver(seen).observe(
                document.getElementById("messages"), { childList: true });
            }"""
        )
        await say(page, "저장소 상태 봐줘")
        await expect(page.locator(".msg.assistant").last).to_have_text("깨끗해요.")
        assert await page.evaluate("window.fillersSeen") == ["bash로 `git status` 확인하는 중…"]
        await expect(page.locator(".msg.filler")).to_have_count(0)
        await page.reload()
        await expect(page.locator(".msg.assistant").last).to_have_text("깨끗해요.")
        await expect(page.locator(".msg.filler")).to_have_count(0)  # never in the history


FRAME = {
    "interpretation": "빌드가 왜 깨졌는지 원인을 찾아 달라는 요청",
    "decision": "use_tools",
    "confidence": 0.8,
    "frame": "- 최근 커밋 확인\n- 로그 읽기",
}


@pytest.mark.parametrize("size", ["desktop", "phone"], ids=["1440", "390"])
async def test_the_thoughts_view_in_activity(browser: Browser, tmp_path: Path, size: str) -> None:
    """The route, the frame and the thought's end, then a speaking-first pass with each
    candidate's score and why it was said or not — under the "thoughts" chip only."""
    said = {"kind": "follow_up", "utterance": "보고서 초안이 끝났어요. 같이 볼까요?"}
    held = {"kind": "suggestion", "utterance": "내일 회의 전에 요약본도 만들까요?"}
    candidates = [
        {**said, "topic": "보고서", "ratings": HIGH},
        {**held, "topic": "회의 요약", "ratings": WEAK},
    ]
    script = [
        json.dumps(FRAME, ensure_ascii=False),
        "답입니다.",
        json.dumps(candidates, ensure_ascii=False),
    ]
    # idle: a quiet session is no trigger within the test (only the finished goal is)
    thinking = {"engine": "auto", "proactive": {"enabled": True, "idle_sec": 1e9}}
    with live_server(tmp_path, script, scheduler=MANUAL, thinking=thinking) as server:
        service = unattended_of(server)
        page, _ = await hud_pages.open_hud(browser, server.launch_url(lang="ko"), size)
        await say(page, "잘 생각해보고 답해줘: 빌드가 왜 깨졌을까?")
        await expect(page.locator(".msg.assistant").last).to_have_text("답입니다.")
        await show_panels(page)
        lines = page.locator("#thoughts li")
        await expect(lines).to_have_count(3)
        await expect(page.locator("#thoughts")).to_be_hidden()  # "All" leaves them out
        await page.locator('#activity-filter button[data-filter="thoughts"]').click()
        await expect(lines.nth(2)).to_contain_text("경로: 생각하고 답함 · p 1.00 · asked_to_think")
        await expect(lines.nth(1)).to_contain_text("생각 틀: use_tools · 0.80 — 빌드가 왜")
        await expect(lines.nth(0)).to_contain_text("생각 끝")
        await expect(lines.first).to_be_visible()

        now = afternoon(service.app)
        finish_goal(tmp_path, now)
        [result] = await on_server(server, service.speaker.tick(now + 1))
        assert result.reason == "spoke"
        await expect(lines).to_have_count(6)
        await expect(lines.nth(2)).to_contain_text("먼저 말하기 · main · goal_done: 말함 (spoke)")
        spoken = page.locator("#thoughts li", has_text="[follow_up]")
        await expect(spoken).to_contain_text("후보 [follow_up] 보고서 — 0.82, 말함 — 보고서 초안이")
        silent = page.locator("#thoughts li", has_text="회의 요약")
        await expect(silent).to_contain_text("말하지 않음: 약한 항목 (weak_factor)")
        assert await no_horizontal_scroll(page)
        await expect(page.locator("#activity")).to_be_hidden()
        await page.locator('#activity-filter button[data-filter="all"]').click()
        await expect(page.locator("#thoughts")).to_be_hidden()
        await expect(page.locator("#activity")).to_have_js_property("hidden", False)

        # A reload shows the same thoughts (the server's marks), in the same order.
        shown = await page.locator("#thoughts li .what").all_inner_texts()
        await page.reload()
        await expect(page.locator(".msg.assistant").last).to_have_text("답입니다.")
        await show_panels(page)
        await page.locator('#activity-filter button[data-filter="thoughts"]').click()
        await expect(page.locator("#thoughts li .what")).to_have_text(shown)
        await expect(spoken).to_be_visible()
        assert await no_horizontal_scroll(page)
        await shot(page, f"thoughts-after-reload-{size}")
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            sid = await session_of(page)
            history = (await http.get(f"/api/sessions/{sid}/history")).text
        assert "weak_factor" not in history and "asked_to_think" not in history
        assert "같이 볼까요" not in history  # the pass is not in the history either
