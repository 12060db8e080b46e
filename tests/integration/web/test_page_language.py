"""The page's language for every line the server sends it, whatever the server's setting.

Before, an English HUD (`&lang=en`, or an English browser) on a server left at its Korean default
got `/agent`, an unknown command and the model's failure lines in Korean: they read the global
setting, and the providers spoke the language they were built with.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from jarvis.common.i18n import Language, t
from tests.support.live_server import LiveServer, Tab, quiet_settings, serving
from tests.support.scripted_http import SilentServer

HANGUL = re.compile(r"[\uac00-\ud7a3]")
TIMEOUT_SEC = 0.5  # the model server never answers: every prompt ends with the timeout line


@pytest.fixture
def jarvis(tmp_path: Path) -> Iterator[tuple[LiveServer, str]]:
    with SilentServer() as silent:
        base_url = f"{silent.url}/v1"
        model = {
            "provider": "openai",
            "base_url": base_url,
            "model": "local",
            "timeout_sec": TIMEOUT_SEC,
            "max_retries": 0,
            "context_window": 4096,
        }
        # The server's own setting is Korean.
        config = quiet_settings(tmp_path, model, language="ko", openloop={"enabled": False})
        with serving(config) as server:
            yield server, base_url


async def page(server: LiveServer, lang: Language, session: str | None = None) -> Tab:
    query = f"lang={lang}" + (f"&session={session}" if session else "")
    tab = await Tab.open(f"ws://{server.address}/ws?{query}")
    return tab


async def lines(tab: Tab, base_url: str, lang: Language) -> list[str]:
    """What the server says to this page for `/agent`, an unknown command and a prompt the
    model server never answers."""
    await tab.send(type="command", text="/agent")
    listing = (await tab.next("command_result"))["text"]
    assert listing.startswith(t("agents.list_header", lang, current="main")), listing
    await tab.send(type="command", text="/no-such-command")
    unknown = (await tab.next("command_result"))["text"]
    assert unknown == t("commands.unknown", lang, name="/no-such-command")
    await tab.send(type="prompt", text="hello")
    error = await tab.next(("agent_error", "agent_end"))
    assert error["type"] == "agent_error", error
    timeout = t("model.timeout", lang, base_url=base_url, seconds=f"{TIMEOUT_SEC:g}")
    assert timeout in error["message"], error
    return [listing, unknown, error["message"]]


async def test_an_english_page_hears_english_from_a_korean_server(
    jarvis: tuple[LiveServer, str],
) -> None:
    server, base_url = jarvis
    tab = await page(server, "en")
    await tab.next("session")
    said = await lines(tab, base_url, "en")
    assert not any(HANGUL.search(line) for line in said), said
    await tab.close()


async def test_a_session_follows_the_page_that_opens_it(jarvis: tuple[LiveServer, str]) -> None:
    server, base_url = jarvis
    korean = await page(server, "ko")
    session = (await korean.next("session"))["session"]["id"]
    said = await lines(korean, base_url, "ko")
    assert all(HANGUL.search(line) for line in said[:2]), said
    await korean.close()
    english = await page(server, "en", session)  # the same live session, now an English page
    await english.next("session")
    said = await lines(english, base_url, "en")
    assert not any(HANGUL.search(line) for line in said), said
    await english.close()


async def test_an_english_browser_gets_english_http_lines(jarvis: tuple[LiveServer, str]) -> None:
    server, _ = jarvis
    english = {"Accept-Language": "en-US,en;q=0.9"}
    async with httpx.AsyncClient(base_url=server.url) as anonymous:  # no login cookie
        gate = await anonymous.get("/", headers=english)
        refused = await anonymous.get("/api/sessions", headers={**english, "Origin": server.url})
        korean = await anonymous.get("/", headers={"Accept-Language": "ko-KR"})
    assert gate.status_code == 401 and t("web.gate_open_url", "en") in gate.text
    assert not HANGUL.search(gate.text), gate.text
    assert refused.status_code == 401 and refused.json()["detail"] == t("web.unauthorized", "en")
    assert HANGUL.search(korean.text)
