"""A source with `interests: true` says new entries that match the owner's interests in the
user model (set here the way the HUD's About me card does) as well as its keywords; an entry
that matches neither is recorded, not said."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from pytest_httpserver import HTTPServer

from jarvis.core.sources.definition import parse_source, write_source
from jarvis.core.sources.store import read_status
from tests.integration.sources.feeds import FeedSite, Item
from tests.integration.unattended.helpers import MANUAL, tick_all, unattended_of
from tests.support.live_server import live_server

SECURITY = {"web_fetch_allow_private": True}


async def test_interests_from_the_user_model_match_besides_keywords(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    site = FeedSite()
    url = site.serve(httpserver, "/feed")
    text = f"url: {url}\nevery: 1 minute\nmatch: [release]\ninterests: true\nenabled: true\n"
    source = parse_source("news", text)
    assert source.interests
    write_source(tmp_path, source)
    assert parse_source("news", (tmp_path / "external_sources" / "news.yaml").read_text()).interests
    with live_server(tmp_path, [], scheduler=MANUAL, security=SECURITY) as server:
        service = unattended_of(server)
        await service.preapprovals.grant(source, ["web_fetch"], "local")
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            answer = await http.post("/api/me/set", json={"field": "interests", "value": "러스트"})
            assert answer.status_code == 200
        now = (int(time.time() * 1000) // 60_000) * 60_000 + 60_000
        await tick_all(server, now)  # the first poll: an empty feed
        site.items = [
            Item("a", "https://news.example/a", "러스트 1.90 출시"),  # an interest
            Item("b", "https://news.example/b", "Python 3.15 release"),  # a keyword
            Item("c", "https://news.example/c", "정원 가꾸기"),  # neither
        ]
        await tick_all(server, now + 120_000)
        assert read_status(tmp_path, "news").line.endswith("3 new, 0 updated, 2 to say")
        await tick_all(server, now + 121_000)  # the notification
        (said,) = [m for m in service.hub.sent if m["type"] == "proactive_message"]
        assert "러스트 1.90 출시" in said["text"] and "Python 3.15 release" in said["text"]
        assert "정원" not in said["text"]
