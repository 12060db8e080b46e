"""Helpers for the HUD browser tests: opening the page at a size, typing, screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

# How long an action or expectation waits: only a hang guard, so it is generous (a busy 2-core CI
# machine renders slowly, and a short budget would make tests depend on load).
HANG_GUARD_MS = 60_000
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
# Screenshots the tests take, for people to look at (CI keeps the folder as an artifact).
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "hud"
# What every page opened by `open_hud` logged against the CSP or threw, for `csp_holds`.
_PROBLEMS: list[str] = []


@pytest.fixture(autouse=True)
def csp_holds() -> Iterator[None]:
    """Imported by the HUD test modules: no page may break the CSP or throw, in any test."""
    _PROBLEMS.clear()
    yield
    assert _PROBLEMS == [], _PROBLEMS


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": tool, "arguments": arguments}]}


def bash(command: str) -> dict[str, Any]:
    return call("bash", command=command)


async def open_hud(
    browser: Browser, url: str, size: str = "desktop", **context: Any
) -> tuple[Page, list[str]]:
    """The page at `size`, and the list its CSP violations (console lines) are collected in."""
    # Reduced motion: drawers open without a transition, so a screenshot shows where they end.
    context.setdefault("reduced_motion", "reduce")
    context.setdefault("locale", "ko-KR")  # the HUD follows the browser's language
    made = await browser.new_context(viewport=SIZES[size], **context)  # type: ignore[arg-type]
    made.set_default_timeout(HANG_GUARD_MS)
    page = await made.new_page()
    violations: list[str] = []

    def console(line: str) -> None:
        if "Security Policy" in line:
            violations.append(line)
            _PROBLEMS.append(line)

    def thrown(error: object) -> None:
        # A request cut by our own navigation (reload, goto) in some feature script is noise.
        if "Failed to fetch" not in str(error):
            violations.append(f"page error: {error}")
            _PROBLEMS.append(f"page error: {error}")

    page.on("console", lambda m: console(m.text))
    page.on("pageerror", thrown)
    await page.goto(url)
    await expect(page.locator("#status.on")).to_be_visible()
    return page, violations


async def say(page: Page, text: str) -> None:
    await page.fill("#input", text)
    await page.press("#input", "Enter")


async def session_of(page: Page) -> str:
    return str(await page.evaluate("sessionStorage.getItem('jarvis_session')"))


async def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    await page.screenshot(path=str(path))
    return path


async def no_horizontal_scroll(page: Page) -> bool:
    return bool(await page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"))


async def show_panels(page: Page) -> None:
    """On a phone AGENDA, ACTIVITY and the rules are a drawer: open it (no-op on a desktop)."""
    if await page.locator("#panels").is_visible():
        await page.click("#panels")
        await expect(page.locator("#side")).to_be_in_viewport()


async def controls_smaller_than(page: Page, scope: str, least: int) -> list[dict[str, Any]]:
    """Visible buttons, inputs and selects inside `scope` smaller than `least` px either way
    (on a phone a finger needs 44 px)."""
    return list(
        await page.evaluate(
            """([scope, least]) => [...document.querySelectorAll(
                 `${scope} button, ${scope} input, ${scope} select`)]
              .filter((n) => n.checkVisibility() && !n.closest('[hidden]'))
              .map((n) => { const r = n.getBoundingClientRect();
                return { what: n.className || n.tagName, w: r.width, h: r.height }; })
              .filter((r) => r.w < least || r.h < least)""",
            [scope, least],
        )
    )
