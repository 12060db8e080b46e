"""Each notification is said once: a poll that recorded new entries (with the id of the
notification that will say them) and died before anything was said still gets them said, by
the next tick, once, also after a restart on the same engine database; the same story in two
sources is said by the first only."""

from __future__ import annotations

import time
from pathlib import Path

from pytest_httpserver import HTTPServer

from jarvis.core.sources.definition import parse_source, write_source
from jarvis.core.sources.entries import Entry
from jarvis.core.sources.seen import SeenStore
from jarvis.core.sources.store import read_status
from tests.integration.sources.feeds import FeedSite, Item
from tests.integration.unattended.helpers import MANUAL, tick_all, unattended_of
from tests.support.live_server import Tab, live_server

SECURITY = {"web_fetch_allow_private": True}


async def test_recorded_but_not_said_is_said_once_across_a_restart(tmp_path: Path) -> None:
    write_source(tmp_path, parse_source("news", "url: https://news.example/feed\n"))
    note = "extsrc-note:news:1000"
    # What a poll leaves when it dies right after recording: seen entries with their note id.
    entries = [Entry(f"g{i}", f"https://news.example/{i}", f"Story {i}", "", "") for i in range(3)]
    SeenStore(tmp_path).append("news", entries, 1000, [note] * 3)
    now = int(time.time() * 1000)
    with live_server(tmp_path, [], scheduler=MANUAL) as server:
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        assert await tick_all(server, now) == [note]
        message = await tab.next("proactive_message")
        assert message["message_id"] == note and len(message["text"].splitlines()) == 4
        assert await tick_all(server, now + 1000) == []  # this process: started already
        sent = unattended_of(server).hub.sent
        assert [m["message_id"] for m in sent] == [note]
        await tab.close()
    with live_server(tmp_path, [], scheduler=MANUAL) as again:  # a restart, same engine file
        assert await tick_all(again, now + 2000) == [note]  # asked for again: DBOS has it done
        assert unattended_of(again).hub.sent == []


async def test_the_same_story_in_two_sources_is_said_once(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    story = Item("s1", "https://news.example/story", "Shared story")
    one, two = FeedSite(items=[]), FeedSite(items=[])
    for name, site in (("one", one), ("two", two)):
        url = site.serve(httpserver, f"/{name}")
        write_source(tmp_path, parse_source(name, f"url: {url}\nevery: 1 minute\nenabled: true\n"))
    with live_server(tmp_path, [], scheduler=MANUAL, security=SECURITY) as server:
        service = unattended_of(server)
        for name in ("one", "two"):
            await service.preapprovals.grant(
                parse_source(name, "url: http://localhost/\n"), ["web_fetch"], "local"
            )
        now = (int(time.time() * 1000) // 60_000) * 60_000 + 60_000
        await tick_all(server, now)  # first polls: empty feeds
        one.items = [story]
        two.items = [Item("other-id", "https://news.example/story?utm_source=two", "Shared story")]
        await tick_all(server, now + 120_000)
        await tick_all(server, now + 121_000)  # the notifications
        said = [m for m in service.hub.sent if m["type"] == "proactive_message"]
        assert len(said) == 1 and "Shared story" in said[0]["text"]
        lines = {read_status(tmp_path, n).line.split(": ", 1)[1] for n in ("one", "two")}
        assert lines == {"1 new, 0 updated, 1 to say", "0 new, 0 updated, 0 to say"}
