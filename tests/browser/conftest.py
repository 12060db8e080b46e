"""A real Chromium (Debian's, driven by Playwright) against the real server.

One Playwright driver and one Chromium per test process, started by the first browser test:
starting them took 2-7 s a test on the loaded CI machine, most of it the driver's Node.js. Each
test still gets a page of its own in a fresh browser context (its own cookies, storage and
cache), closed when the test ends; a browser that died is started again for the next test. The
browser tests therefore run in the test process's one event loop (the driver is bound to it).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Playwright, expect

from tests.browser.hud_pages import HANG_GUARD_MS

expect.set_options(timeout=HANG_GUARD_MS)  # expectations wait for a condition, never a time

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HERE = Path(__file__).resolve().parent
SESSION_LOOP = pytest.mark.asyncio(loop_scope="session")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every async test of this folder runs in the session's event loop, the driver's."""
    for item in items:
        if HERE in Path(str(item.path)).parents and item.get_closest_marker("asyncio"):
            item.add_marker(SESSION_LOOP, append=False)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _driver() -> AsyncIterator[Playwright]:
    if not CHROMIUM.exists():
        reason = "Chromium not installed at /usr/bin/chromium (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs the browser: {reason}")
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        yield driver


class _Chromium:
    """The test process's browser, launched again if it went away."""

    def __init__(self, driver: Playwright) -> None:
        self.driver = driver
        self.browser: Browser | None = None

    async def get(self) -> Browser:
        if self.browser is None or not self.browser.is_connected():
            launch: Any = self.driver.chromium.launch
            self.browser = await launch(executable_path=str(CHROMIUM), args=FLAGS)
        return self.browser

    async def close(self) -> None:
        if self.browser is not None and self.browser.is_connected():
            await self.browser.close()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _chromium(_driver: Playwright) -> AsyncIterator[_Chromium]:
    chromium = _Chromium(_driver)
    try:
        yield chromium
    finally:
        await chromium.close()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(_chromium: _Chromium) -> AsyncIterator[Browser]:
    shared = await _chromium.get()
    assert shared.contexts == [], "a test left a browser context open"
    try:
        yield shared
    finally:
        for context in list(shared.contexts):  # the test's pages, cookies and storage go
            await context.close()
