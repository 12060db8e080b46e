"""Helpers for the HUD browser tests: opening the page at a size, typing, screenshots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, expect

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
# Screenshots the tests take, for people to look at (CI keeps the folder as an artifact).
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "hud"


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
    page = await made.new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Security Policy" in m.text else None)
    page.on("pageerror", lambda e: violations.append(f"page error: {e}"))
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
