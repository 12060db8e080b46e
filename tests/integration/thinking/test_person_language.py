"""Speaking first in the person's language, also after a restart (issue 26 items 4 and 7): the
page a person opened says which language they read; a restarted server still knows it, so the
reflection prompt asks for that language and the card's code-made lines (the "do it" prompt)
are from the catalog in it."""

from __future__ import annotations

import json
import stat
import time
from pathlib import Path

import httpx

from jarvis.common.i18n import t
from jarvis.core.proactive.reflection import LANGUAGE_NAMES, REFLECTION_MARKER
from jarvis.core.sources.definition import parse_source, write_source
from jarvis.core.sources.entries import Entry
from jarvis.core.sources.seen import SeenStore
from jarvis.model_layer import FauxProvider
from tests.integration.thinking.test_speaking_first import HIGH, afternoon
from tests.integration.thinking.test_speaking_first_events import finish_goal
from tests.integration.unattended.helpers import MANUAL, on_server, tick_all, unattended_of
from tests.support.live_server import LiveServer, Tab, live_server

SAID = [
    {
        "kind": "follow_up",
        "utterance": "The report draft is done. Shall we look at it?",
        "topic": "report",
        "ratings": HIGH,
    }
]
SPEAKS = {"proactive": {"enabled": True, "idle_sec": 1e9}}


async def open_page(server: LiveServer, lang: str) -> None:
    """What the HUD does: a session, then its socket with the page's language."""
    async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
        sid = str((await http.post("/api/sessions", params={"lang": lang})).json()["id"])
    tab = await Tab.open(f"{server.ws_url(sid)}&lang={lang}")
    await tab.next("session")
    await tab.close()


def reflection_prompt(server: LiveServer) -> str:
    [provider] = list(server.assembly._provider_cache.values())
    assert isinstance(provider, FauxProvider)
    [call] = [c for c in provider.calls if c.system_prompt.startswith(REFLECTION_MARKER)]
    return str(call.messages[-1].content)


async def speak_first(server: LiveServer) -> tuple[str, str]:
    """A finished goal → one pass: (the reflection prompt, the "do it" prompt of its card)."""
    service = unattended_of(server)
    now = afternoon(service.app)
    finish_goal(server.assembly.settings.home, now)
    [result] = await on_server(server, service.speaker.tick(now + 1))
    assert result.reason == "spoke"
    [card] = [m for m in service.hub.sent if m["kind"] == "proactive"]
    async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
        body = {"message_id": card["message_id"], "feedback": "do_it"}
        answer = await http.post("/api/proactive/feedback", json=body)
    return reflection_prompt(server), str(answer.json()["prompt"])


async def test_a_restarted_server_speaks_first_in_the_persons_language(tmp_path: Path) -> None:
    script = [json.dumps(SAID)]
    # The server's setting is Korean; the person's page is English.
    with live_server(tmp_path, ["hi"], language="ko") as server:
        await open_page(server, "en")
    saved = tmp_path / "languages.json"
    assert json.loads(saved.read_text())["people"] == {"local": "en"}
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600

    # Restarted: no page has been opened since, yet the person is spoken to in English.
    with live_server(tmp_path, script, language="ko", scheduler=MANUAL, thinking=SPEAKS) as server:
        prompt, do_it = await speak_first(server)
    assert f"The person's language: {LANGUAGE_NAMES['en']}" in prompt
    assert t("proactive.trigger.goal_done", "en", items="") in prompt
    assert t("thought.no_recent", "en") in prompt and "맡긴 목표" not in prompt
    assert do_it == t("proactive.do_it", "en", text=SAID[0]["utterance"])


async def test_the_page_language_changes_and_a_korean_person_gets_korean(tmp_path: Path) -> None:
    with live_server(tmp_path, ["hi"], language="en") as server:
        await open_page(server, "en")
        await open_page(server, "ko")  # the page they opened last
    said = [{**SAID[0], "utterance": "보고서 초안이 끝났어요. 같이 볼까요?"}]
    with live_server(
        tmp_path,
        [json.dumps(said, ensure_ascii=False)],
        language="en",
        scheduler=MANUAL,
        thinking=SPEAKS,
    ) as server:
        prompt, do_it = await speak_first(server)
    assert f"The person's language: {LANGUAGE_NAMES['ko']}" in prompt
    assert t("proactive.trigger.goal_done", "ko", items="") in prompt
    assert do_it == t("proactive.do_it", "ko", text=said[0]["utterance"])


async def test_a_source_card_is_in_the_persons_language(tmp_path: Path) -> None:
    """Code-made text on a proactive card (a source's digest head) follows the owner's page."""
    write_source(tmp_path, parse_source("news", "url: https://news.example/feed\n"))
    note = "extsrc-note:news:1000"
    entries = [Entry(f"g{i}", f"https://news.example/{i}", f"Story {i}", "", "") for i in range(2)]
    SeenStore(tmp_path).append("news", entries, 1000, [note] * 2)
    with live_server(tmp_path, [], language="ko", scheduler=MANUAL) as server:
        tab = await Tab.open(f"{server.ws_url()}?lang=en")
        await tab.next("session")
        assert await tick_all(server, int(time.time() * 1000)) == [note]
        message = await tab.next("proactive_message")
        await tab.close()
    head = message["text"].splitlines()[0]
    assert head == t("sources.digest_head", "en", source="news", count=2)
