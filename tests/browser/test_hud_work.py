"""HUD items 1–3 in Chromium: rendered answers, visible tool work, visible state."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, Route, WebSocketRoute, expect

from tests.browser.hud_pages import (
    bash,
    call,
    csp_holds,  # noqa: F401  (autouse)
    no_horizontal_scroll,
    open_hud,
    say,
    shot,
)
from tests.support.live_server import live_server

ANSWER = """Here is **the plan**:

| step | what |
|---:|---|
| 1 | build |
| 2 | ship |

```python
def greet(name):
    return f"hi {name}"
```

See [the docs](https://example.com/docs) and <script>window.pwned=1</script>.
"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_answers_are_rendered_markdown_with_highlight_copy_table_and_safe_links(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    with live_server(tmp_path, [{"text": ANSWER, "chunk": 7}]) as server:
        page, violations = await open_hud(browser, server.launch_url(), size)
        await say(page, "plan?")
        answer = page.locator(".msg.assistant").last
        await expect(answer.locator("table td")).to_have_count(4)
        await expect(answer.locator("table td.align-right").first).to_have_text("1")
        await expect(answer.locator("strong")).to_have_text("the plan")
        await expect(answer.locator("pre code.hljs .hljs-keyword").first).to_have_text("def")
        link = answer.locator("a")
        await expect(link).to_have_attribute("href", "https://example.com/docs")
        await expect(link).to_have_attribute("rel", "noopener noreferrer")
        await expect(answer).to_contain_text("<script>window.pwned=1</script>")  # as text
        assert await page.evaluate("window.pwned") is None
        assert await answer.locator("script, img, [style]").count() == 0
        await page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        await answer.locator(".code-block .copy").click()
        await expect(answer.locator(".code-block .copy")).to_have_class("copy done")
        copied = await page.evaluate("navigator.clipboard.readText()")
        assert copied.startswith("def greet(name):")
        assert await no_horizontal_scroll(page)
        await shot(page, f"markdown-{size}")
        assert violations == []


async def test_a_streamed_answer_is_rendered_while_it_streams(
    browser: Browser, tmp_path: Path
) -> None:
    slow = {"text": "**bold start** then a long tail " + "word " * 400, "chunk": 3}
    with live_server(tmp_path, [slow]) as server:
        page, _ = await open_hud(browser, server.launch_url())
        await say(page, "stream")
        answer = page.locator(".msg.assistant").last
        await expect(answer.locator("strong")).to_have_text("bold start")
        await expect(page.locator("#working")).to_be_hidden()


async def test_tool_blocks_show_args_time_result_and_exit_code(
    browser: Browser, tmp_path: Path
) -> None:
    script = [bash("seq 1 40; exit 3"), "done"]
    with live_server(tmp_path, script) as server:
        page, _ = await open_hud(browser, server.launch_url())
        await say(page, "count")
        await page.click("#modal-buttons button[data-answer=allow]")
        block = page.locator("details.tool").last
        await expect(block).to_have_class("tool bad")
        await expect(block.locator("summary")).to_contain_text("bash")
        await expect(block.locator("summary")).to_contain_text("seq 1 40; exit 3")
        await expect(block.locator("summary .exit")).to_have_text("종료 코드 3")
        await expect(block.locator(".tool-time")).to_have_text(re.compile(r"\d+\.\ds"))
        await block.locator("summary").click()
        result = block.locator("pre.result")
        await expect(result).to_be_visible()
        assert "40" not in (await result.text_content() or "")  # cut to the first lines
        await block.locator(".show-all").click()
        await expect(result).to_contain_text("40")
        await expect(page.locator(".msg.assistant").last).to_have_text("done")
        await shot(page, "tool-block-desktop")


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_the_approval_for_a_file_edit_shows_the_diff_before_allow(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    (tmp_path / "app.py").write_text("a = 1\nb = 2\nc = 3\n", encoding="utf-8")
    edit = call("edit_file", path="app.py", old_string="b = 2", new_string="b = 20")
    with live_server(tmp_path, [edit, "edited"]) as server:
        page, _ = await open_hud(browser, server.launch_url(), size)
        await say(page, "edit it")
        diff = page.locator("#modal-diff pre.diff")
        await expect(diff.locator(".del")).to_have_text("-b = 2\n")
        await expect(diff.locator(".add")).to_have_text("+b = 20\n")
        await expect(page.locator("#modal-buttons button[data-answer=allow]")).to_be_in_viewport()
        await shot(page, f"approval-diff-{size}")
        assert (tmp_path / "app.py").read_text(encoding="utf-8") == "a = 1\nb = 2\nc = 3\n"
        await page.click("#modal-buttons button[data-answer=allow]")
        await expect(page.locator(".msg.assistant").last).to_have_text("edited")
        block = page.locator("details.tool").last
        await block.locator("summary").click()
        await expect(block.locator("pre.diff .add")).to_have_text("+b = 20\n")


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_stop_leaves_a_line_and_marks_the_killed_tool(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    with live_server(tmp_path, [bash("sleep 60"), "never"]) as server:
        page, _ = await open_hud(browser, server.launch_url(), size)
        await say(page, "wait a minute")
        await page.click("#modal-buttons button[data-answer=allow]")
        await expect(page.locator("details.tool.running")).to_have_count(1)
        await expect(page.locator("#working")).to_be_visible()
        await expect(page.locator("#working-text")).to_contain_text("bash")
        await page.locator("#messages").click()
        await page.keyboard.press("Escape")  # Esc = Stop when no modal is open
        await expect(page.locator(".msg.system.stopped")).to_have_text("■ 중단됨")
        killed = page.locator("details.tool").last
        await expect(killed.locator(".tool-icon")).to_have_text("✗")
        await expect(killed).to_have_class("tool bad killed")
        await expect(page.locator("#working")).to_be_hidden()
        await shot(page, f"stopped-{size}")


async def test_a_message_typed_offline_is_kept_and_sent_on_reconnect(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, ["first", "second"]) as server:
        page, _ = await open_hud(browser, server.launch_url())
        offline = asyncio.Event()
        sockets: list[WebSocketRoute] = []

        async def network(route: WebSocketRoute) -> None:
            if offline.is_set():  # the server is unreachable: the socket closes at once
                await route.close(code=4000, reason="offline")
                return
            sockets.append(route)
            route.connect_to_server()

        await page.route_web_socket("**/ws*", network)
        await say(page, "one")  # the first message makes the session; its socket is routed
        await expect(page.locator(".msg.assistant").last).to_have_text("first")
        offline.set()
        await sockets[-1].close(code=4000, reason="network down")
        await expect(page.locator("#banner")).to_be_visible()
        await say(page, "two")
        queued = page.locator(".msg.user.queued")
        await expect(queued).to_contain_text("연결되면 보냅니다")
        await shot(page, "offline-desktop")
        offline.clear()
        await expect(page.locator("#banner")).to_be_hidden()
        await expect(page.locator(".msg.assistant").last).to_have_text("second")
        await expect(page.locator(".msg.user.queued")).to_have_count(0)
        await expect(page.locator(".msg.user")).to_have_text(["one", "two"])


async def test_a_first_message_survives_a_server_that_cannot_make_the_session(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, ["made it"]) as server:
        page, _ = await open_hud(browser, server.launch_url())
        refused: list[str] = []

        async def fail_once(route: Route) -> None:
            if not refused:
                refused.append(route.request.url)
                await route.fulfill(status=503, body='{"detail": "down"}')
            else:
                await route.continue_()

        await page.route("**/api/sessions?*", fail_once)
        await say(page, "hello?")
        await expect(page.locator(".msg.assistant")).to_have_text(["made it"])
        assert refused  # the first attempt failed; the message waited and went out
        await expect(page.locator(".msg.user")).to_have_text(["hello?"])
        await expect(page.locator("#banner")).to_be_hidden()
