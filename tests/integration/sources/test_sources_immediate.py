"""`notify: immediate` through the speaking-first gate, on a real server and engine (SQLite)
against a feed site on 127.0.0.1, the scripted model: an entry the gate lets through is its own
message (no model call, counted in the agent's speaking-first state, 👍/👎 reach the learner);
the rest of the poll (too soon after it) and what the quiet hours hold wait in one digest, said
at the next poll period or when the quiet hours end; every entry said exactly once. With
speaking first off, one message per entry at once. A batch run again after a crash repeats its
recorded decision with the same message ids."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pytest_httpserver import HTTPServer

from jarvis.app.unattended.sources import NOTE
from jarvis.core.sources.definition import parse_source, write_source
from jarvis.core.sources.seen import SeenStore
from tests.integration.sources.feeds import FeedSite, Item
from tests.integration.thinking.test_speaking_first import Model, afternoon, reflection
from tests.integration.thinking.test_wired import scripted
from tests.integration.unattended.helpers import MANUAL, on_server, tick_all, unattended_of
from tests.support.live_server import LiveServer, live_server

SECURITY = {"web_fetch_allow_private": True}
MINUTE = 60_000
SPEAKING = {"proactive": {"enabled": True}}


def _site(httpserver: HTTPServer, home: Path) -> FeedSite:
    site = FeedSite(items=[Item("old", "https://news.example/old", "Python old news")])
    url = site.serve(httpserver, "/feed")
    text = f"url: {url}\nevery: 1 minute\nmatch: [python]\nnotify: immediate\nenabled: true\n"
    write_source(home, parse_source("news", text))
    return site


def _publish(site: FeedSite, prefix: str, count: int) -> list[str]:
    titles = [f"Python {prefix} {i}" for i in range(count)]
    site.items[:0] = [
        Item(f"{prefix}{i}", f"https://news.example/{prefix}{i}", t) for i, t in enumerate(titles)
    ]
    return titles


async def _start(server: LiveServer, first_ms: int) -> None:
    service = unattended_of(server)
    await service.preapprovals.grant(
        parse_source("news", "url: http://localhost/\n"), ["web_fetch"], "local"
    )
    await tick_all(server, first_ms)  # the first poll: the backlog counts as seen


def _said(server: LiveServer) -> list[dict[str, Any]]:
    return [m for m in unattended_of(server).hub.sent if m["type"] == "proactive_message"]


def _mentions(server: LiveServer, titles: list[str]) -> dict[str, int]:
    return {t: sum(t in m["text"] for m in _said(server)) for t in titles}


@contextmanager
def _speaking_server(home: Path) -> Iterator[tuple[LiveServer, Model]]:
    """A real server whose agent speaks first, reflections answered by the scripted model."""
    with live_server(home, [], scheduler=MANUAL, security=SECURITY, thinking=SPEAKING) as server:
        model = Model(reflection())
        scripted(server.assembly, model)
        yield server, model


async def test_the_gate_lets_one_through_and_the_rest_wait_in_one_digest(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    site = _site(httpserver, tmp_path)
    with _speaking_server(tmp_path) as (server, model):
        now = afternoon(server.assembly) // MINUTE * MINUTE
        await _start(server, now - 10 * MINUTE)
        titles = _publish(site, "n", 3)
        assert await tick_all(server, now) == [f"extsrc:news:{now}"]
        batch = f"extsrc-note:news:{now}:now"
        assert await tick_all(server, now + 1000) == [batch]
        [first] = _said(server)
        assert first["message_id"] == f"proactive:main:extsrc-news-{now}-0"
        assert first["actions"] == ["thumbs_up", "thumbs_down"] and first["topic"] == "news"
        assert titles[0] in first["text"]
        held = f"extsrc-note:news:{now}:held"
        assert held not in await tick_all(server, now + 2000)  # not before the next period
        assert held in await tick_all(server, now + MINUTE)
        digest = _said(server)[-1]
        assert digest["message_id"] == held and digest["text"].splitlines()[1:] == [
            f"• {t} — https://news.example/n{i}" for i, t in enumerate(titles) if i
        ]
        assert _mentions(server, titles) == dict.fromkeys(titles, 1)
        assert model.reflections == []  # the gate alone: no model call, no tokens
        state = json.loads((tmp_path / "proactive" / "main.json").read_text())
        assert [(s["message_id"], s["kind"]) for s in state["said"]] == [
            (first["message_id"], "news")
        ]
        speaker = unattended_of(server).speaker
        assert speaker.feedback("local", first["message_id"], "thumbs_down", now) == ""
        state = json.loads((tmp_path / "proactive" / "main.json").read_text())
        assert state["learner"]["dismissals"] == {"news": 1}

        # A run of the batch cut short and run again repeats its decision, same message ids,
        # even if the moment changed (a new message would now be too soon).
        before = len(_said(server))
        runtime = unattended_of(server).runtime
        assert runtime is not None
        await on_server(server, runtime.sources.interrupted(NOTE, "news", batch))
        again = _said(server)[before:]
        assert [m["message_id"] for m in again] == [first["message_id"]]
        lines = SeenStore(tmp_path).path.read_text().splitlines()
        assert sum('"decision"' in line for line in lines) == 1
    with _speaking_server(tmp_path) as (again_server, _):
        # a restart on the same engine file: asked for again, done already
        asked = await tick_all(again_server, now + MINUTE + 1000)
        assert batch in asked and held in asked
        assert _said(again_server) == []


async def test_the_quiet_hours_hold_every_entry_until_they_end(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    site = _site(httpserver, tmp_path)
    with _speaking_server(tmp_path) as (server, _):
        night = afternoon(server.assembly) // MINUTE * MINUTE + 9 * 3_600_000  # 23:00
        await _start(server, night - 10 * MINUTE)
        titles = _publish(site, "q", 2)
        await tick_all(server, night)
        await tick_all(server, night + 1000)
        assert _said(server) == []
        held = f"extsrc-note:news:{night}:held"
        assert held not in await tick_all(server, night + 2 * MINUTE)
        assert held not in await tick_all(server, night + 8 * 3_600_000)  # 07:00: still quiet
        assert held in await tick_all(server, night + 9 * 3_600_000)  # 08:00
        [digest] = _said(server)
        assert digest["message_id"] == held
        assert _mentions(server, titles) == dict.fromkeys(titles, 1)


async def test_with_speaking_first_off_each_entry_is_its_own_message_at_once(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    site = _site(httpserver, tmp_path)
    with live_server(tmp_path, [], scheduler=MANUAL, security=SECURITY) as server:
        now = (int(time.time() * 1000) // MINUTE) * MINUTE + MINUTE
        await _start(server, now)
        titles = _publish(site, "o", 3)
        await tick_all(server, now + 2 * MINUTE)
        await tick_all(server, now + 2 * MINUTE + 1000)
        ids = [m["message_id"] for m in _said(server)]
        assert ids == [f"extsrc-note:news:{now + 2 * MINUTE}:{i}" for i in range(3)]
        assert _mentions(server, titles) == dict.fromkeys(titles, 1)
        assert not (tmp_path / "proactive").exists()
