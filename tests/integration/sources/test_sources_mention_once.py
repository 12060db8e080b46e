"""One path per entry, with speaking first on (core/sources/route.py): a real server and engine,
feeds on 127.0.0.1, a scripted model that mentions every entry its reflection prompt names. An
entry of a digest source is said by its digest, one of an immediate source by the gate's
message — neither ever reaches a reflection; an entry of a `notify: off` source is speaking
first's own (a `source_item` trigger). Every entry is mentioned exactly once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_httpserver import HTTPServer

from jarvis.core.proactive.reflection import REFLECTION_MARKER
from jarvis.core.sources.definition import parse_source, write_source
from jarvis.model_layer import LLMContext
from tests.integration.sources.feeds import FeedSite, Item
from tests.integration.thinking.test_speaking_first import HIGH, afternoon
from tests.integration.thinking.test_wired import scripted
from tests.integration.unattended.helpers import MANUAL, on_server, tick_all, unattended_of
from tests.support.live_server import LiveServer, live_server

SECURITY = {"web_fetch_allow_private": True}
MINUTE = 60_000
NOTIFY = {"digest": "digest", "quiet": "off", "now": "immediate"}


class Echo:
    """Reflections: one candidate naming every known title the prompt holds (none: `[]`)."""

    def __init__(self) -> None:
        self.titles: list[str] = []
        self.reflections: list[str] = []

    def __call__(self, ctx: LLMContext) -> str:
        if not ctx.system_prompt.startswith(REFLECTION_MARKER):
            return "네."
        prompt = str(ctx.messages[-1].content)
        self.reflections.append(prompt)
        named = [t for t in self.titles if t in prompt]
        if not named:
            return "[]"
        item = {"kind": "suggestion", "utterance": "새 소식: " + "; ".join(named)}
        return json.dumps([{**item, "topic": "소식", "ratings": HIGH}], ensure_ascii=False)


async def _settle(server: LiveServer, at_ms: int) -> None:
    """Wait for the speaking-first pass the last tick poked, then run one more at `at_ms`."""
    speaker = unattended_of(server).speaker

    async def passes() -> None:
        if speaker._running is not None:
            await speaker._running
        await speaker.tick(at_ms)

    await on_server(server, passes())


def _publish(site: FeedSite, name: str, echo: Echo) -> str:
    title = f"Python {name} story"
    site.items.insert(0, Item(f"{name}-1", f"https://news.example/{name}-1", title))
    echo.titles.append(title)
    return title


async def test_each_entry_is_mentioned_once_by_the_path_that_owns_it(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    sites = {name: FeedSite(items=[]) for name in NOTIFY}
    for name, site in sites.items():
        url = site.serve(httpserver, f"/{name}")
        text = f"url: {url}\nevery: 1 minute\nmatch: [python]\nnotify: {NOTIFY[name]}\n"
        write_source(tmp_path, parse_source(name, text + "enabled: true\n"))
    thinking = {"proactive": {"enabled": True}}
    with live_server(
        tmp_path, [], scheduler=MANUAL, security=SECURITY, thinking=thinking
    ) as server:
        echo = Echo()
        scripted(server.assembly, echo)
        service = unattended_of(server)
        for name in NOTIFY:
            await service.preapprovals.grant(
                parse_source(name, "url: http://localhost/\n"), ["web_fetch"], "local"
            )
        now = afternoon(server.assembly) // MINUTE * MINUTE
        await tick_all(server, now - 10 * MINUTE)  # first polls: empty feeds

        # A digest entry and a `notify: off` entry, the same poll period.
        digest = _publish(sites["digest"], "digest", echo)
        quiet = _publish(sites["quiet"], "quiet", echo)
        await tick_all(server, now)
        await tick_all(server, now + 1000)
        await _settle(server, now + 2000)
        # Three hours on (not too soon after that): an immediate entry.
        later = now + 3 * 3_600_000
        immediate = _publish(sites["now"], "now", echo)
        await tick_all(server, later)
        await tick_all(server, later + 1000)
        await _settle(server, later + 2000)

        said: list[dict[str, Any]] = [
            m for m in service.hub.sent if m["type"] == "proactive_message"
        ]
        count = {t: sum(t in m["text"] for m in said) for t in (digest, quiet, immediate)}
        assert count == {digest: 1, quiet: 1, immediate: 1}
        by = {t: next(m["message_id"] for m in said if t in m["text"]) for t in count}
        assert by[digest] == f"extsrc-note:digest:{now}"
        assert by[quiet].startswith("proactive:main:")  # speaking first's reflection
        assert by[immediate] == f"proactive:main:extsrc-now-{later}-0"  # the gate, no model
        assert not any(digest in r or immediate in r for r in echo.reflections)
