"""web_fetch and the Brave path of web_search against a real local HTTP server; the DuckDuckGo
path only for its error handling (no network here, and tests must not use it anyway)."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from jarvis.core.tools.builtins import WebFetchTool, WebSearchTool
from tests.integration.tools._helpers import Site, closed_port_url, run, tool_env

# The local site is on 127.0.0.1, which web_fetch refuses by default (test_web_boundary.py).
FETCH = WebFetchTool(allow_private=True)


async def test_html_becomes_main_text(tmp_path: Path, site: Site) -> None:
    result = await run(FETCH, tmp_path, url=f"{site.url}/page")
    assert not result.is_error and "human in charge of every risky action" in result.content
    assert "var secret" not in result.content and "<p>" not in result.content
    assert result.details["content_type"] == "text/html"


async def test_plain_text_and_json_come_back_as_text(tmp_path: Path, site: Site) -> None:
    plain = await run(FETCH, tmp_path, url=f"{site.url}/plain")
    assert plain.content == "line one\nline two\n"
    data = await run(FETCH, tmp_path, url=f"{site.url}/data")
    assert json.loads(data.content) == {"name": "Jarvis", "tools": ["bash"]}
    assert data.content.startswith('{\n  "name"')  # pretty-printed for the model


async def test_an_untyped_html_body_is_sniffed(tmp_path: Path, site: Site) -> None:
    result = await run(FETCH, tmp_path, url=f"{site.url}/untyped")
    assert "no type given" in result.content and "<p>" not in result.content


async def test_binary_content_is_described_not_returned(tmp_path: Path, site: Site) -> None:
    result = await run(FETCH, tmp_path, url=f"{site.url}/image.png")
    assert not result.is_error and result.content == "not text: image/png, 104 bytes"


async def test_the_size_limit_stops_the_download(tmp_path: Path, site: Site) -> None:
    tool = WebFetchTool(max_bytes=100_000, max_chars=200_000, allow_private=True)
    result = await run(tool, tmp_path, url=f"{site.url}/endless", max_chars=200_000)
    assert result.content.endswith("[download stopped at the 100,000-byte limit]")
    assert result.content.count("z") == 100_000


async def test_max_chars_truncates_with_a_notice(tmp_path: Path, site: Site) -> None:
    result = await run(FETCH, tmp_path, url=f"{site.url}/plain", max_chars=8)
    assert result.content == "line one\n[truncated: showing 8 of 18 characters]"


async def test_redirects_are_followed(tmp_path: Path, site: Site) -> None:
    result = await run(FETCH, tmp_path, url=f"{site.url}/moved")
    assert result.content.startswith("line one") and result.details["url"].endswith("/plain")


async def test_the_time_limit_covers_the_whole_fetch(tmp_path: Path, site: Site) -> None:
    result = await run(  # /slow answers after an hour: returning at all is the cut
        WebFetchTool(timeout=0.5, allow_private=True), tmp_path, url=f"{site.url}/slow"
    )
    assert result.is_error and "no complete answer within 0.5 s" in result.content


async def test_abort_stops_a_fetch(tmp_path: Path, site: Site) -> None:
    abort = asyncio.Event()
    asyncio.get_running_loop().call_later(0.2, abort.set)
    result = await FETCH.execute("c", {"url": f"{site.url}/slow"}, tool_env(tmp_path, abort))
    assert result.is_error and result.content == "aborted by the user"


async def test_http_errors_and_unreachable_hosts(tmp_path: Path, site: Site) -> None:
    missing = await run(FETCH, tmp_path, url=f"{site.url}/missing")
    assert missing.is_error and missing.content.endswith("HTTP 404")
    refused = await run(FETCH, tmp_path, url=closed_port_url())
    assert refused.is_error and refused.content.startswith("could not fetch http://127.0.0.1:")
    assert "ConnectError" in refused.content


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("file:///etc/passwd", "only http:// and https:// URLs can be fetched"),
        ("ftp://example.com/x", "only http:// and https:// URLs"),
        ("example.com/page", "only http:// and https:// URLs"),
        ("http://", "invalid URL"),
        ("", "argument 'url' must not be empty"),
    ],
)
async def test_bad_urls_are_refused(tmp_path: Path, url: str, message: str) -> None:
    result = await run(FETCH, tmp_path, url=url)
    assert result.is_error and message in result.content


async def test_max_chars_has_a_ceiling(tmp_path: Path) -> None:
    result = await run(WebFetchTool(max_chars=1000), tmp_path, url="http://x", max_chars=5000)
    assert result.is_error and "argument 'max_chars' must be at most 1000" in result.content


def _brave(site: Site, path: str = "/search") -> WebSearchTool:
    return WebSearchTool("key-1", brave_endpoint=f"{site.url}{path}")


async def test_brave_search_sends_the_key_and_formats_results(tmp_path: Path, site: Site) -> None:
    result = await run(_brave(site), tmp_path, query="jarvis assistant", max_results=2)
    assert result.content == (
        "1. Jarvis & friends\n   https://j.example/\n   an open assistant\n\n"
        "2. Second\n   https://two.example/\n   more"
    )
    request = site.requests[-1]
    assert request.headers["x-subscription-token"] == "key-1"
    assert dict(request.query_params) == {"q": "jarvis assistant", "count": "2"}
    assert result.details == {"engine": "Brave Search", "results": 2}


async def test_brave_results_are_cut_to_max_results(tmp_path: Path, site: Site) -> None:
    result = await run(_brave(site), tmp_path, query="x", max_results=1)
    assert result.content.startswith("1. Jarvis") and "2." not in result.content


@pytest.mark.parametrize(
    ("endpoint", "message"),
    [
        ("/search-limited", "Brave Search search failed: HTTP 429"),
        ("/search-garbage", "Brave Search search failed: the answer was not the expected JSON"),
    ],
)
async def test_brave_failures_are_error_results(
    tmp_path: Path, site: Site, endpoint: str, message: str
) -> None:
    result = await run(_brave(site, endpoint), tmp_path, query="x")
    assert result.is_error and result.content.startswith(message)


async def test_brave_unreachable_is_an_error_result(tmp_path: Path) -> None:
    tool = WebSearchTool("key-1", brave_endpoint=closed_port_url())
    result = await run(tool, tmp_path, query="x")
    assert result.is_error and result.content.startswith("Brave Search search failed: ConnectError")


async def test_search_arguments_are_checked(tmp_path: Path) -> None:
    many = await run(WebSearchTool("k"), tmp_path, query="x", max_results=50)
    assert many.is_error and "argument 'max_results' must be at most 20" in many.content
    empty = await run(WebSearchTool("k"), tmp_path, query=" ")
    assert empty.is_error and "argument 'query' must not be empty" in empty.content


class _RaisingDDGS:
    def __init__(self, **kwargs: Any) -> None:
        pass

    def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
        raise RuntimeError("network is unreachable")


_ANSWER = threading.Event()  # the hanging search answers only once the test has its result


class _SlowDDGS(_RaisingDDGS):
    def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
        _ANSWER.wait()  # the thread outlives the call; pytest waits for it at teardown
        return []


async def test_duckduckgo_failure_is_an_error_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ddgs

    monkeypatch.setattr(ddgs, "DDGS", _RaisingDDGS)
    result = await run(WebSearchTool(), tmp_path, query="x")
    assert result.is_error
    assert result.content == "DuckDuckGo search failed: RuntimeError: network is unreachable"


async def test_duckduckgo_that_hangs_hits_the_time_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ddgs

    monkeypatch.setattr(ddgs, "DDGS", _SlowDDGS)
    _ANSWER.clear()
    try:  # the search never answers before the result is back: returning is the time limit
        result = await run(WebSearchTool(timeout=0.2), tmp_path, query="x")
    finally:
        _ANSWER.set()
    assert result.is_error and result.content == "DuckDuckGo did not answer within 0.2 s"


async def test_duckduckgo_rows_are_formatted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ddgs

    class Answering(_RaisingDDGS):
        def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
            assert kwargs["max_results"] == 3
            return [{"title": "T", "href": "https://t.example/", "body": "B &lt;3"}]

    monkeypatch.setattr(ddgs, "DDGS", Answering)
    result = await run(WebSearchTool(), tmp_path, query="x", max_results=3)
    assert result.content == "1. T\n   https://t.example/\n   B <3"
