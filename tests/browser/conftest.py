"""A real Chromium (Debian's, driven by Playwright) against the real server."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import expect

# Expectations wait for a condition; the limit only stops a hung test, so it is generous (a busy
# 2-core CI machine renders slowly, and a short budget would make tests depend on load).
expect.set_options(timeout=60_000)

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


@pytest.fixture
async def browser() -> AsyncIterator[object]:
    if not CHROMIUM.exists():
        reason = "Chromium not installed at /usr/bin/chromium (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs the browser: {reason}")
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield chromium
        finally:
            await chromium.close()
