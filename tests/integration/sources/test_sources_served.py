"""External sources through a real server and engine (SQLite), against a feed site on
127.0.0.1: disabled until the owner pre-approves web_fetch to the host; the first poll takes
the backlog as seen; new matching entries arrive as one proactive_message per source per
poll window; rewritten ids, reordering and in-place updates say nothing; 304, 429 with
Retry-After, 301 and 410 each leave one line in the status."""

from __future__ import annotations

import time
from pathlib import Path

from pytest_httpserver import HTTPServer

from jarvis.core.sources.definition import parse_source, write_source
from jarvis.core.sources.store import read_status
from tests.integration.sources.feeds import FeedSite, Item
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of
from tests.support.live_server import Tab, live_server

SECURITY = {"web_fetch_allow_private": True}
STEP = 120_000  # each tick two poll periods (every: 1 minute) later


def _items(n: int, prefix: str = "g") -> list[Item]:
    return [Item(f"{prefix}{i}", f"https://news.example/{i}", f"Story {i}") for i in range(n)]


async def test_a_source_polled_on_the_engine(tmp_path: Path, httpserver: HTTPServer) -> None:
    site = FeedSite(items=_items(3))
    url = site.serve(httpserver, "/feed")
    source = parse_source("news", f"url: {url}\nevery: 1 minute\nmatch: [python]\nenabled: true\n")
    write_source(tmp_path, source)
    with live_server(tmp_path, [], scheduler=MANUAL, security=SECURITY) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        now = (int(time.time() * 1000) // 60_000) * 60_000 + 60_000

        async def tick() -> list[str]:
            nonlocal now
            now += STEP
            started = await on_server(server, runtime.tick(now))
            for run_id in started:
                await on_server(server, service.engine.wait(run_id))
            return started

        def line() -> str:
            return read_status(tmp_path, "news").line

        # Not pre-approved: the poll is blocked and nothing reaches the site.
        assert [r.split(":")[0] for r in await tick()] == ["extsrc"]
        assert line().startswith("blocked: the owner (local) has not pre-approved web_fetch")
        assert site.requests == []
        await service.preapprovals.grant(source, ["web_fetch"], "local")

        # First poll: the backlog counts as seen, no message.
        await tick()
        assert "3 new" in line() and "first poll" in line()
        assert await tick() != []  # unchanged: a conditional request answered 304
        assert line().startswith("304 not modified")
        assert site.requests[-1]["If-None-Match"]

        # Ids rewritten, reordered, one updated in place, two new of which one matches.
        site.items = [
            Item("n1", "https://news.example/n1", "Python 3.15 released"),
            Item("n2", "https://news.example/n2", "Gardening tips"),
            *[Item("x" + i.guid, i.link, i.title, i.body) for i in reversed(site.items)],
        ]
        site.items[2].body = "corrected text"
        polled = await tick()
        assert "2 new, 1 updated, 1 to say" in line()
        notes = await tick()  # the notification recorded by the poll, as its own run
        assert any(n.startswith("extsrc-note:news:") for n in notes)
        message = await tab.next("proactive_message")
        assert message["kind"] == "proactive" and message["source"] == "news"
        assert message["text"].splitlines() == [
            "📰 [news] 새 글 1개",
            "• Python 3.15 released — https://news.example/n1",
        ]
        assert polled and message["message_id"] in notes

        # 429 with Retry-After: one line, and no poll before the time it gave.
        site.answer = 429
        await tick()
        assert line() == "429 too many requests: next poll in 600 s (Retry-After)"
        asked = len(site.requests)
        assert [r for r in await tick() if r.startswith("extsrc:")] == []
        assert len(site.requests) == asked

        # 301: the source moves within its host; 410: it pauses.
        moved = FeedSite(items=site.items)
        new_url = moved.serve(httpserver, "/moved")
        site.answer, site.location = 301, new_url
        now += 600_000
        await tick()
        assert line() == f"301 moved permanently: now {new_url}"
        await tick()
        assert moved.requests and read_status(tmp_path, "news").url == new_url
        moved.answer = 410
        await tick()
        assert line().startswith("410 gone: paused")
        asked = len(moved.requests)
        assert [r for r in await tick() if r.startswith("extsrc:")] == []
        assert len(moved.requests) == asked
        await tab.close()
