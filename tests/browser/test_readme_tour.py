"""The README's quick tour, step by step, against `jarvis serve --demo` in Korean and in English:
what the README says the screen shows is what it shows."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from jarvis.app.infra import build_app
from jarvis.app.settings import Settings
from jarvis.common.i18n import t
from tests.browser.hud_pages import (
    csp_holds,  # noqa: F401  (autouse)
    open_hud,
    say,
    shot,
)
from tests.support.live_server import LiveServer

# The words, the buttons and the lines the README names, in each language.
TOUR = {
    "ko": {
        "yes": "응 해",
        "allowed": "→ 허용",
        "always": "항상 허용",
        "sample": "마크다운 예시 보여줘",
        "promise": "내일 오후 3시까지 보고서 보내야 해",
        "due": "내일 15:00",
        "done": "완료",
        "drop": "안 챙기기",
        "stop": "중단",
        "stopped": "■ 중단됨",
        "waiting": "bash — 승인을 기다리는 중",
    },
    "en": {
        "yes": "yes, go ahead",
        "allowed": "→ allowed",
        "always": "Always",
        "sample": "show a Markdown sample",
        "promise": "I need to send the report by tomorrow 3pm",
        "due": "tomorrow 15:00",
        "done": "Done",
        "drop": "Drop",
        "stop": "Stop",
        "stopped": "■ Stopped",
        "waiting": "bash — waiting for your approval",
    },
}


@contextmanager
def demo_server(home: Path) -> Iterator[LiveServer]:
    """`jarvis serve --demo`: the scripted demo model, everything else as shipped."""
    web = {"token": secrets.token_urlsafe(16)}
    config = Settings(home=home, workspace=home, web=web, scheduler={"enabled": False})
    server = LiveServer(build_app(config, demo=True))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_readme_tour(browser: Browser, tmp_path: Path, lang: str) -> None:
    words = TOUR[lang]
    with demo_server(tmp_path) as server:
        page, _ = await open_hud(browser, server.launch_url(lang=lang))
        # 1. The header names the model; an empty chat offers things to try.
        await expect(page.locator("#model-name")).to_have_text("demo")
        await expect(page.locator("#messages .suggestion")).to_have_count(4)
        # 2. A command asks; the window docks, the working line waits; Deny ends the turn.
        await say(page, "!git status")
        await expect(page.locator("#modal")).to_be_visible()
        await expect(page.locator("#modal-pattern")).to_contain_text("bash git status")
        await expect(page.locator("#working-text")).to_have_text(words["waiting"])
        await page.click("#modal-buttons button[data-answer=deny]")
        denied = t("approval.denied_turn_end", lang, tools="bash")  # type: ignore[arg-type]
        await expect(page.locator(".msg.assistant").last).to_have_text(denied)
        # 3. Again, answered in words in the message box; the output stays plain text.
        await say(page, "!git status")
        await expect(page.locator("#modal")).to_be_visible()
        await say(page, words["yes"])
        await expect(page.locator(".msg.system.words").last).to_contain_text(words["allowed"])
        await expect(page.locator(".tool .exit")).to_have_count(1)
        await expect(page.locator(".msg.assistant").last.locator("pre")).to_have_count(1)
        # 4. ALWAYS saves the rule; the same command then runs without asking.
        await say(page, "!git status --short")
        await page.get_by_role("button", name=words["always"], exact=True).click()
        await expect(page.locator("#rules")).to_contain_text("bash git status")
        await say(page, "!git status -s")
        await expect(page.locator(".tool .exit")).to_have_count(3)
        await expect(page.locator("#modal")).to_be_hidden()
        # 5. The Markdown sample: a table, a list, code with a copy button.
        await say(page, words["sample"])
        answer = page.locator(".msg.assistant").last
        await expect(answer.locator("table")).to_be_visible()
        await expect(answer.locator("ol li")).to_have_count(2)
        await expect(answer.locator(".code-block button.copy")).to_have_count(1)
        # 6. A promise: first in the side column, its due relative.
        await say(page, words["promise"])
        item = page.locator("#agenda li:not(.closed):not(.muted)")
        await expect(item.locator(".due")).to_have_text(words["due"])
        await expect(item.get_by_role("button", name=words["done"])).to_be_visible()
        await expect(item.get_by_role("button", name=words["drop"])).to_be_visible()
        first = await page.locator("#side > .card:visible").first.get_attribute("id")
        assert first == "agenda-card"
        await shot(page, f"tour-{lang}")
        # 7. Stop a running command; a reload shows the stop and the killed call again.
        await say(page, "!sleep 30")
        await page.click("#modal-buttons button[data-answer=allow]")
        await expect(page.locator("#working-text")).to_have_text(re.compile("sleep|bash"))
        await page.get_by_role("button", name=words["stop"], exact=True).click()
        await expect(page.locator(".msg.system.stopped")).to_have_text(words["stopped"])
        await page.reload()
        await expect(page.locator("#status.on")).to_be_visible()
        await expect(page.locator(".msg.system.stopped")).to_have_text(words["stopped"])
        await expect(page.locator(".tool.killed")).to_have_count(1)
        await expect(page.locator("#activity li").filter(has_text="sleep 30")).to_have_count(1)
