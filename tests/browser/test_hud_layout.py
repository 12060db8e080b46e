"""HUD items 6–8 in Chromium: phone layout without horizontal scroll, light/dark, favicon,
shortcuts and help, one language per person; the approval-in-words line; first paint."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, WebSocketRoute, expect

from jarvis.common.i18n import t
from tests.browser.hud_pages import (
    SHOTS,
    bash,
    csp_holds,  # noqa: F401  (autouse)
    no_horizontal_scroll,
    open_hud,
    say,
    shot,
)
from tests.support.live_server import live_server

WIDE = "| " + " | ".join(f"column{i}" for i in range(30)) + " |\n|" + "---|" * 30 + "\n"
LONG_LINE = "x" * 600


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_no_horizontal_scroll_and_panels_on_a_phone(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    script = [{"text": WIDE + "\n" + LONG_LINE}, bash(f"echo {LONG_LINE}"), "ok"]
    with live_server(tmp_path, script) as server:
        page, violations = await open_hud(browser, server.launch_url(), size)
        await say(page, "wide things " + LONG_LINE)
        await expect(page.locator(".msg.assistant table")).to_be_visible()
        await say(page, "a long command")
        await page.click("#modal-buttons button[data-answer=allow]")
        await expect(page.locator(".msg.assistant").last).to_have_text("ok")
        assert await no_horizontal_scroll(page)
        chat = await page.locator(".chat").bounding_box()
        assert chat is not None
        if size == "phone":
            assert chat["width"] >= 388  # the chat fills the screen
            await expect(page.locator("#side")).not_to_be_in_viewport()
            await page.click("#panels")
            await expect(page.locator("#side")).to_be_in_viewport()
            await expect(page.locator("#activity li")).to_have_count(1)
            assert await no_horizontal_scroll(page)
            await shot(page, "panels-phone")
            await page.keyboard.press("Escape")
            await expect(page.locator("#side")).not_to_be_in_viewport()
        else:
            await expect(page.locator("#side")).to_be_in_viewport()
            await expect(page.locator("#sessions")).to_be_in_viewport()
        await shot(page, f"layout-{size}")
        assert violations == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_light_dark_toggle_favicon_help_and_shortcuts(
    browser: Browser, tmp_path: Path, size: str
) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        page, _ = await open_hud(browser, server.launch_url(), size, color_scheme="light")
        background = "getComputedStyle(document.body).backgroundColor"
        assert await page.evaluate(background) == "rgb(246, 247, 249)"  # follows the system
        await page.click("#theme")
        assert await page.evaluate(background) == "rgb(15, 18, 22)"
        await page.reload()  # the choice is kept
        await expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        assert await page.evaluate(background) == "rgb(15, 18, 22)"
        icon = await page.locator("link[rel=icon]").get_attribute("href")
        async with httpx.AsyncClient(base_url=server.url) as http:
            got = await http.get(str(icon))
            assert got.status_code == 200 and got.headers["content-type"] == "image/svg+xml"
        await say(page, "/help")  # the server's command table, as a line in the chat
        await expect(page.locator(".msg.system").last).to_contain_text("/status")
        await page.click("#help-open")  # the keys
        await expect(page.locator("#help")).to_be_visible()
        await expect(page.locator("#help-lines")).to_contain_text("Ctrl/⌘+K")
        await expect(page.locator("#help-lines")).to_contain_text("Esc")
        await shot(page, f"help-dark-{size}")
        await page.keyboard.press("Escape")
        await expect(page.locator("#help")).to_be_hidden()
        await page.click("#help-open")
        await expect(page.locator("#help")).to_be_visible()
        await page.click("#help-close")
        await say(page, "hello")
        await expect(page.locator(".msg.assistant")).to_have_text(["hi"])
        await page.keyboard.press("Control+k")
        await expect(page.locator(".msg")).to_have_count(0)
        assert "session=" not in page.url


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_english_everywhere_with_lang_en(browser: Browser, tmp_path: Path, size: str) -> None:
    with live_server(tmp_path, [bash("rm -r build")]) as server:
        page, _ = await open_hud(browser, server.launch_url(lang="en"), size)
        await expect(page.locator("html")).to_have_attribute("lang", "en")
        await expect(page.locator("#send")).to_have_text("Send")
        await say(page, "clean up")
        await expect(page.locator("#modal-buttons button[data-answer=deny]")).to_have_text(
            "Deny (Esc)"
        )
        await page.click("#modal-buttons button[data-answer=deny]")
        await expect(page.locator(".msg.assistant").last).to_have_text(
            t("approval.denied_turn_end", "en", tools="bash")
        )
        await expect(page.locator("#activity li .what")).to_have_text(
            ["✗ bash rm -r build — denied by user"]
        )
        await page.goto(f"{server.url}/")  # the choice stays for this browser
        await expect(page.locator("#send")).to_have_text("Send")
        text = await page.locator("body").inner_text()
        assert not any("\uac00" <= ch <= "\ud7a3" for ch in text), text


async def test_an_answer_in_words_shows_its_line(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        page, _ = await open_hud(browser, server.launch_url())
        routes: list[WebSocketRoute] = []

        def network(route: WebSocketRoute) -> None:
            routes.append(route)
            route.connect_to_server()

        await page.route_web_socket("**/ws*", network)
        await say(page, "hello")
        await expect(page.locator(".msg.assistant")).to_have_text(["hi"])
        line = "'잠깐 이건 하지마' → 거부"
        event = {
            "type": "approval_words",
            "id": "a1",
            "text": "잠깐 이건 하지마",
            "decision": "deny",
        }
        routes[-1].send(json.dumps({**event, "line": line}))
        await expect(page.locator(".msg.system.words")).to_have_text(line)
        await expect(page.locator(".msg.user")).to_have_text(["hello"])


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_first_paint_is_measured(browser: Browser, tmp_path: Path, size: str) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        page, _ = await open_hud(browser, server.launch_url(), size)
        await page.reload()  # the second load: what a person opening the HUD again sees
        await expect(page.locator("#status.on")).to_be_visible()
        paints = await page.evaluate(
            "Object.fromEntries(performance.getEntriesByType('paint')"
            ".map(p => [p.name, Math.round(p.startTime)]))"
        )
        assert "first-contentful-paint" in paints
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / f"first-paint-{size}.json").write_text(json.dumps(paints), encoding="utf-8")


async def test_readme_screenshot(browser: Browser, tmp_path: Path) -> None:
    answer = (
        "Here is what changed:\n\n| file | lines |\n|---|---|\n| app.py | +3 −1 |\n\n"
        "```bash\ngit status --short\n```\n"
    )
    script = [bash("git status --short"), answer, bash("git status && rm -rf build")]
    (tmp_path / ".git").mkdir()  # an empty repository for `git status` to succeed in
    for part in ("objects", "refs"):
        (tmp_path / ".git" / part).mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    with live_server(tmp_path, script) as server:
        page, _ = await open_hud(browser, server.launch_url(lang="en"), color_scheme="dark")
        await say(page, "what changed?")
        await page.click("#modal-buttons button[data-answer=allow]")
        await expect(page.locator(".msg.assistant table")).to_be_visible()
        await say(page, "now clean the build")
        await expect(page.locator("#modal-warnings")).to_contain_text("compound")
        await shot(page, "readme-hud")


async def test_the_browser_language_decides_unless_the_person_chose(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, ["hi"]) as server:
        page, _ = await open_hud(browser, server.launch_url(), locale="en-US")
        await expect(page.locator("#send")).to_have_text("Send")
        await page.goto(server.launch_url(lang="ko"))
        await expect(page.locator("#send")).to_have_text("보내기")
