"""Issue 24 in Chromium: the approval window docked above the message box that answers in words,
states that say what happens and come back after a reload, the phone with a second agent, the
side column, and the small visible things (fenced tool output, a small 👎, the model's name)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.hud_pages import (
    SIZES,
    bash,
    csp_holds,  # noqa: F401  (autouse)
    no_horizontal_scroll,
    open_hud,
    say,
    shot,
)
from tests.support.live_server import Tab, live_server


def with_second_agent(home: Path) -> Path:
    (home / "team").mkdir()
    (home / "team" / "karen.yaml").write_text(json.dumps({"name": "KAREN"}), "utf-8")
    return home


async def watch(server: object, page: Page) -> Tab:
    session = await page.evaluate("sessionStorage.getItem('jarvis_session')")
    tab = await Tab.open(server.ws_url(str(session)))  # type: ignore[attr-defined]
    await tab.next("session")
    return tab


# --- item 4: the message box answers ----------------------------------------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_the_docked_window_leaves_the_chat_and_the_box_answers_in_words(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    script = [bash("echo one"), "done one", bash("echo two"), "done two"]
    with live_server(tmp_path, script) as server:
        page, _ = await open_hud(browser, server.launch_url(), size)
        await say(page, "first")
        dock = page.locator("#modal")
        await expect(dock).to_be_visible()
        # Not modal: the message box keeps the focus, the chat stays on screen above it.
        await expect(page.locator("#input")).to_be_focused()
        await expect(page.locator(".msg.user")).to_be_in_viewport()
        await expect(page.locator("#modal-words")).to_contain_text("말로 답해도 됩니다")
        dock_box = await dock.bounding_box()
        composer = await page.locator("#composer").bounding_box()
        assert dock_box and composer and dock_box["y"] + dock_box["height"] <= composer["y"] + 1
        for button in await page.locator("#modal-buttons button").all():
            await expect(button).to_be_in_viewport()
        await shot(page, f"approval-docked-{size}")
        watcher = await watch(server, page)
        # An empty Enter answers nothing; words do (the server's words path decides).
        await page.press("#input", "Enter")
        await page.keyboard.type("응 실행해")
        await page.keyboard.press("Enter")
        resolved = await watcher.next("approval_resolved")
        assert resolved["status"] == "allow"
        await expect(page.locator(".msg.system.words")).to_contain_text("허용")
        await expect(page.locator(".msg.assistant").last).to_have_text("done one")
        # A refusal is never read as consent.
        await say(page, "second")
        await expect(dock).to_be_visible()
        await page.keyboard.type("아니 하지마")
        await page.keyboard.press("Enter")
        assert (await watcher.next("approval_resolved"))["status"] == "deny"
        await expect(dock).to_be_hidden()
        await watcher.close()


# --- item 5: states that say what happens, and stay after a reload -------------------------------


async def test_a_waiting_tool_says_so_and_its_clock_starts_when_it_runs(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, [bash("echo waited"), "ok"]) as server:
        page, _ = await open_hud(browser, server.launch_url())
        await say(page, "run it")
        await expect(page.locator("#modal")).to_be_visible()
        await expect(page.locator("#working-text")).to_have_text("bash — 승인을 기다리는 중")
        block = page.locator(".tool.waiting")
        await expect(block.locator(".tool-time")).to_have_text("승인 대기")  # no running clock
        await page.click("#modal-buttons button[data-answer=allow]")
        await expect(page.locator(".tool.ok")).to_have_count(1)
        await expect(page.locator(".tool.waiting")).to_have_count(0)
        # The time shown is the run (a fraction of a second), not the wait before it.
        await expect(page.locator(".tool.ok .tool-time")).to_have_text(re.compile(r"^\d\.\ds$"))


async def test_a_reload_keeps_the_stop_the_killed_tool_and_activity(
    browser: Browser, tmp_path: Path
) -> None:
    judge = ["내일 오후 3시까지 보고서 보내기 (근거: 내일 오후 3시까지 보고서 보내야 해)"]
    script = ["알겠습니다.", bash("sleep 60")]
    with live_server(tmp_path, script, judge=judge) as server:
        page, _ = await open_hud(browser, server.launch_url())
        await say(page, "내일 오후 3시까지 보고서 보내야 해")
        await expect(page.locator("#activity li[data-kind=agenda]")).to_have_count(1)
        await say(page, "wait a minute")
        await page.click("#modal-buttons button[data-answer=allow]")
        await expect(page.locator("#working-text")).to_have_text("bash 실행 중…")
        await page.click("#stop")
        await expect(page.locator(".msg.system.stopped")).to_have_text("■ 중단됨")
        await expect(page.locator(".tool.killed")).to_have_count(1)
        live = await page.locator("#activity li .what").all_inner_texts()
        await page.reload()
        await expect(page.locator("#status.on")).to_be_visible()
        await expect(page.locator(".msg.system.stopped")).to_have_text("■ 중단됨")
        killed = page.locator(".tool.killed")
        await expect(killed.locator(".exit.bad")).to_have_text("중단됨")
        await expect(killed.locator(".tool-time")).to_have_text(re.compile(r"^\d+\.\ds$"))
        activity = page.locator("#activity li")
        await expect(activity.filter(has_text="sleep 60")).to_have_count(1)  # the argument
        await expect(page.locator("#activity li[data-kind=stop]")).to_have_count(1)
        await expect(page.locator("#activity li[data-kind=agenda]")).to_have_count(1)
        assert any("sleep 60" in line for line in live)
        await shot(page, "reload-after-stop")


# --- item 7: a phone with a second agent -------------------------------------------------------


async def controls(page: Page) -> list[dict[str, object]]:
    return list(
        await page.evaluate(
            """() => [...document.querySelectorAll('button, select, input, textarea, summary')]
            .filter((n) => n.checkVisibility() && !n.closest('[hidden]'))
            .filter((n) => { const r = n.getBoundingClientRect(); // not in a closed drawer
              return r.right > 0 && r.x < innerWidth; })
            .map((n) => { const r = n.getBoundingClientRect();
              return { what: n.id || n.className || n.tagName, x: r.x, y: r.y, w: r.width,
                       h: r.height, right: r.right, bottom: r.bottom }; })"""
        )
    )


async def all_reachable(page: Page, least: int) -> None:
    size = page.viewport_size
    assert size is not None
    assert await no_horizontal_scroll(page)
    for c in await controls(page):
        assert c["x"] >= 0 and c["right"] <= size["width"] + 0.5, c  # type: ignore[operator]
        assert c["w"] >= least and c["h"] >= least, c  # type: ignore[operator]


async def through_drawer(page: Page, opener: str, inside: str, closer: str, least: int) -> None:
    await page.click(opener)
    await expect(page.locator(inside)).to_be_in_viewport()
    await all_reachable(page, least)
    await shot(page, f"second-agent-phone-{opener.strip('#')}")
    await page.click(closer)
    await expect(page.locator(inside)).not_to_be_in_viewport()


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_every_control_fits_and_is_big_enough_with_a_second_agent(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    # On a phone every target is 44 px (a finger); on a desktop 24 px (WCAG 2.2 target size).
    least = 44 if size == "phone" else 24
    with live_server(with_second_agent(tmp_path), ["hello"]) as server:
        page, _ = await open_hud(browser, server.launch_url(), size)
        await say(page, "hi")
        await expect(page.locator(".msg.assistant").last).to_have_text("hello")
        await expect(page.locator("#agent-select option")).to_have_count(2)
        header = await page.locator("header.bar").bounding_box()
        assert header is not None and header["width"] <= SIZES[size]["width"]
        await all_reachable(page, least)
        await shot(page, f"second-agent-{size}")
        if size == "phone":
            # The switcher lives in the sessions drawer; ▤ (on screen) opens the AGENDA, first
            # in its drawer. Both drawers close with ✕.
            await through_drawer(page, "#menu", "#sessions #agent-select", "#sessions-close", least)
            await expect(page.locator("#panels")).to_be_in_viewport()
            await through_drawer(page, "#panels", "#agenda-card", "#side-close", least)
        else:
            await expect(page.locator("header #agent-select")).to_be_visible()


# --- item 9: the side column --------------------------------------------------------------------


async def test_the_side_column_agenda_first_one_style_and_empty_cards_folded(
    browser: Browser, tmp_path: Path
) -> None:
    judge = ["내일 오후 3시까지 분기 보고서 초안을 팀장님께 보내기 (근거: 분기 보고서 초안)"]
    with live_server(tmp_path, ["알겠습니다."], judge=judge) as server:
        page, _ = await open_hud(browser, server.launch_url())
        await say(page, "내일 오후 3시까지 분기 보고서 초안을 팀장님께 보내야 해")
        await expect(page.locator("#agenda li:not(.muted)")).to_have_count(1)
        cards = page.locator("#side > .card:visible")
        ids = await cards.evaluate_all("cs => cs.map((c) => c.id)")
        assert ids[0] == "agenda-card", ids
        styles = await cards.evaluate_all(
            """cs => cs.map((c) => { const s = getComputedStyle(c);
                return [s.backgroundColor, s.borderRadius, s.borderTopWidth].join(' '); })"""
        )
        assert len(set(styles)) == 1, styles  # one card style
        await expect(page.locator("#rules-card")).to_have_class(re.compile("empty"))
        folded = await page.locator("#rules-card").bounding_box()
        assert folded is not None and folded["height"] < 40
        await expect(page.locator("#agenda-card")).not_to_have_class(re.compile("empty"))
        # No word is broken across two lines in the side column.
        split = await page.evaluate(
            """() => { const out = [];
              for (const n of document.querySelectorAll('#side .promise-text, #side .what')) {
                const text = n.firstChild; if (!text || text.nodeType !== 3) continue;
                let at = 0;
                for (const word of text.data.split(' ')) {
                  const r = document.createRange();
                  r.setStart(text, at); r.setEnd(text, at + word.length);
                  const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
                  if (word && lines.size > 1) out.push(word);
                  at += word.length + 1;
                } }
              return out; }"""
        )
        assert split == []
        await shot(page, "side-column")


# --- item 10: the small visible things ------------------------------------------------------------


async def test_tool_output_stays_text_thumbs_down_is_small_and_the_model_is_named(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, ["an answer"]) as server:
        page, _ = await open_hud(browser, server.launch_url())
        await expect(page.locator("#model-name")).to_have_text("faux")  # before any message
        await say(page, "hello")
        await expect(page.locator(".msg.assistant").last).to_have_text("an answer")
        await expect(page.locator("#model-name")).to_have_text("faux")
        wrong = page.locator("#messages > .wrong")
        await expect(wrong).to_have_attribute("aria-label", "틀린 답이라고 표시")
        box = await wrong.bounding_box()
        assert box is not None and box["width"] < 60, box
        # The demo's answer quoting a file with a heading: fenced, so no heading is drawn.
        rendered = await page.evaluate(
            """text => { const n = document.createElement('div');
              window.Jarvis.markdown.render(n, text);
              return [n.querySelectorAll('h1, h2').length, n.querySelectorAll('pre').length]; }""",
            "result:\n\n````text\n## big heading\n```\ninside\n```\n````",  # demo.fenced
        )
        assert rendered == [0, 1]
