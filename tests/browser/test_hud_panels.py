"""HUD items 4, 9 and 10 in Chromium: a reload rebuilds the screen from the server; the AGENDA
card and the rules panel; ACTIVITY one readable line per decision, filterable."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.async_api import Browser, expect

from tests.browser.hud_pages import (
    bash,
    csp_holds,  # noqa: F401  (autouse)
    open_hud,
    say,
    shot,
    show_panels,
)
from tests.support.live_server import live_server

SEOUL = ZoneInfo("Asia/Seoul")


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_a_reload_shows_the_same_messages_tool_blocks_and_activity(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    script = [bash("echo kept-after-reload"), "**done** with it"]
    with live_server(tmp_path, script) as server:
        page, _ = await open_hud(browser, server.launch_url(), size)
        await say(page, "run it")
        await page.click("#modal-buttons button[data-answer=allow]")
        await expect(page.locator(".msg.assistant strong")).to_have_text("done")
        await expect(page.locator("#activity li")).to_have_count(1)
        before = await page.locator("#activity li .what").all_text_contents()
        await page.reload()
        await expect(page.locator("#status.on")).to_be_visible()
        await expect(page.locator(".msg.user")).to_have_text(["run it"])
        await expect(page.locator(".msg.assistant strong")).to_have_text("done")
        block = page.locator("details.tool")
        await expect(block).to_have_count(1)
        await expect(block.locator("summary .exit")).to_have_text("종료 코드 0")
        # The run time comes back from the server's marks (the history keeps none).
        await expect(block.locator(".tool-time")).to_have_text(re.compile(r"^\d+\.\ds$"))
        await block.locator("summary").click()
        await expect(block.locator("pre.result")).to_contain_text("kept-after-reload")
        await expect(page.locator("#activity li .what")).to_have_text(before)  # with argument
        await expect(page.locator("#activity li .kind")).to_have_text(["승인"])


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_activity_is_one_line_per_decision_with_the_right_label_and_a_filter(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    script = [bash("rm -rf /"), "refused", bash("ls"), "listed"]
    with live_server(tmp_path, script) as server:
        page, _ = await open_hud(browser, server.launch_url(), size)
        await say(page, "wipe")
        await expect(page.locator(".msg.assistant").last).to_have_text("refused")
        await say(page, "list")
        await page.click("#modal-buttons button[data-answer=deny]")
        await expect(page.locator("#activity li")).to_have_count(2)
        await show_panels(page)
        blocked, denied = page.locator("#activity li").nth(1), page.locator("#activity li").nth(0)
        await expect(blocked.locator(".kind")).to_have_text("차단")  # not an "approval"
        await expect(blocked.locator(".what")).to_contain_text("위험 명령 차단")
        assert "\\" not in (await blocked.inner_text())  # no regex shown to a person
        await expect(denied.locator(".kind")).to_have_text("승인")
        await expect(denied.locator(".what")).to_have_text("✗ bash ls — 사용자가 거부")
        await page.click("#activity-filter [data-filter=agenda]")
        await expect(page.locator("#activity li:visible")).to_have_count(0)
        await page.click("#activity-filter [data-filter=errors]")
        await expect(page.locator("#activity li:visible")).to_have_count(1)
        await page.click("#activity-filter [data-filter=all]")
        await expect(page.locator("#activity li:visible")).to_have_count(2)
        await shot(page, f"activity-{size}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_agenda_card_relative_due_labels_and_activity(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    judge = ["내일 오후 3시까지 보고서 보내기 (근거: 내일 오후 3시까지 보고서 보내야 해)"]
    with live_server(tmp_path, ["알겠습니다."], judge=judge) as server:
        page, _ = await open_hud(browser, server.launch_url(), size)
        await say(page, "내일 오후 3시까지 보고서 보내야 해")
        await show_panels(page)
        item = page.locator("#agenda li:not(.closed)")
        await expect(item.locator(".promise-text")).to_have_text("보고서 보내기")  # no date twice
        await expect(item.locator(".due")).to_have_text("내일 15:00")
        done = item.locator("button[data-status=done]")
        await expect(done).to_have_attribute("title", "완료")
        await expect(done).to_contain_text("완료")
        box = await done.bounding_box()
        assert box is not None and box["height"] >= 28  # a finger-sized target
        await expect(page.locator("#activity li[data-kind=agenda]")).to_have_count(1)
        await shot(page, f"agenda-{size}")
        await done.click()
        await expect(page.locator("#agenda li.closed")).to_have_count(1)
        await expect(page.locator("#activity li[data-kind=agenda]").first).to_contain_text(
            "약속 완료: 보고서 보내기"
        )


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_rules_panel_shows_file_errors_who_when_and_revoke_undo(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    script = [bash("git status"), "one"]
    with live_server(tmp_path, script) as server:
        page, _ = await open_hud(browser, server.launch_url(), size)
        await say(page, "status")
        await page.click("#modal-buttons button[data-answer=always]")
        await expect(page.locator(".msg.assistant").last).to_have_text("one")
        await show_panels(page)
        rule = page.locator("#rules li").filter(has_text="bash git status")
        await expect(rule.locator(".meta")).to_contain_text("local ·")
        # when: in the user's timezone (Asia/Seoul by default) like every other time in the HUD
        rules = (tmp_path / "approvals" / "main.yaml").read_text(encoding="utf-8")
        granted = re.search(r"granted_at: '([^']+)'", rules)
        assert granted is not None
        at = datetime.fromisoformat(granted[1].replace("Z", "+00:00")).astimezone(SEOUL)
        await expect(rule.locator(".meta")).to_contain_text(at.strftime("%H:%M"))
        await rule.locator("button").click()
        undo = page.locator("#rules li.undo")
        await expect(undo).to_contain_text("규칙 해제: bash git status")
        await undo.locator("button").click()
        await expect(page.locator("#rules li").filter(has_text="bash git status")).to_have_count(1)
        await expect(page.locator("#rules li.undo")).to_have_count(0)

        (tmp_path / "approvals.yaml").write_text("rules: [unclosed\n", encoding="utf-8")
        await page.reload()
        await show_panels(page)
        await expect(page.locator("#rules li.rule-error")).to_contain_text("approvals.yaml")
        await expect(page.locator("#rules")).not_to_contain_text("기억된 규칙이 없습니다")
        await shot(page, f"rules-error-{size}")


REASONS = [
    "not_required", "user_always", "user_once", "approval_required", "dangerous",
    "denied_repeated", "policy_denied", "policy_unavailable", "secret_path", "aborted",
    "approval_unavailable", "no_approver", "user_deny", "timeout", "rules_unreadable",
]  # fmt: skip


async def test_every_gate_reason_has_words_in_both_languages(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        for lang in ("ko", "en"):
            page, _ = await open_hud(browser, server.launch_url(lang=lang))
            words = await page.evaluate(
                "rs => rs.map(r => Jarvis.panels.decisionWords({outcome: 'block', reason: r}))",
                REASONS,
            )
            assert all(
                w and w != r and "_" not in w for w, r in zip(words, REASONS, strict=True)
            ), words
            decision = {
                "outcome": "allow",
                "reason": "rule:approvals/main.yaml",
                "rule": "bash git status",
            }
            rule = await page.evaluate("d => Jarvis.panels.decisionWords(d)", decision)
            assert "bash git status" in rule and "approvals/main.yaml" in rule
