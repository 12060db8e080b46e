"""A source's fetch is web_fetch's: loopback refused unless allowed, and a permanent move to
another host (never pre-approved) pauses the source instead of following it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_httpserver import HTTPServer

from jarvis.app.sources.fetch import SourceFetcher
from jarvis.app.sources.poller import SourcePoller
from jarvis.common.clock import SystemClock
from jarvis.core.sources.definition import parse_source
from jarvis.core.sources.store import read_status
from jarvis.core.tools.builtins._fetch_guard import FetchGuard
from tests.integration.sources.feeds import FeedSite


class Granted:
    async def missing(self, definition: Any) -> list[str]:
        return []


def _poller(home: Path, allow_private: bool) -> SourcePoller:
    fetcher = SourceFetcher(FetchGuard(allow_private=allow_private))
    return SourcePoller(home, fetcher, Granted(), SystemClock())  # type: ignore[arg-type]


async def test_loopback_is_refused_without_the_setting(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    site = FeedSite()
    url = site.serve(httpserver, "/feed").replace("localhost", "127.0.0.1")
    source = parse_source("local", f"url: {url}\n")
    report = await _poller(tmp_path, allow_private=False).poll(source, "1")
    assert report.action == "failed" and "loopback" in report.line
    assert site.requests == []


async def test_a_move_to_another_host_pauses(tmp_path: Path, httpserver: HTTPServer) -> None:
    site = FeedSite(answer=301, location="http://elsewhere.example/feed")
    url = site.serve(httpserver, "/feed")
    source = parse_source("moving", f"url: {url}\n")
    poller = _poller(tmp_path, allow_private=True)
    report = await poller.poll(source, "1")
    status = read_status(tmp_path, "moving")
    assert report.action == "moved" and status.paused
    assert (
        status.line
        == "301 moved to another host (http://elsewhere.example/feed): paused until edited"
    )
    assert (await poller.poll(source, "2")).action == "paused" and len(site.requests) == 1
