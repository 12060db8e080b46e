"""Web tools: web_search (Brave with a key, else DuckDuckGo through ddgs) and web_fetch.

web_fetch never reaches loopback, private, link-local or metadata addresses unless the settings
allow it: the host is resolved and judged before connecting and again at every redirect, which
is followed by hand, and the connection is pinned to the checked address (`_fetch_guard.py`).
A redirect to another host is not followed unless `follow_other_hosts` (set when the gate does
not ask per host): the model gets the new URL and calls again, so the gate sees that host.
"""

from __future__ import annotations

import asyncio
import html
import re
from dataclasses import dataclass
from typing import Any, ClassVar

import httpx

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.builtins._abort import Aborted, until_done
from jarvis.core.tools.builtins._args import int_arg, object_schema, text_arg
from jarvis.core.tools.builtins._fetch_guard import FetchGuard, FetchRefused, pinned
from jarvis.core.tools.builtins._output import ByteBudget, truncate
from jarvis.core.tools.builtins._tool import BuiltinTool, failure
from jarvis.core.tools.builtins._web_text import text_kind, to_text

BRAVE_ENDPOINT = "https://api.search.brave.com/res/v1/web/search"
SEARCH_TIMEOUT_SEC = 15.0
SEARCH_RESULTS = 5
MAX_SEARCH_RESULTS = 20
FETCH_TIMEOUT_SEC = 30.0
FETCH_MAX_BYTES = 5_000_000
FETCH_CHARS = 20_000
MAX_FETCH_CHARS = 100_000
MAX_REDIRECTS = 10
_USER_AGENT = "Mozilla/5.0 (compatible; Jarvis/0.1; personal assistant)"
_TAG = re.compile(r"<[^>]+>")
_ABORTED = "aborted by the user"


@dataclass
class SearchHit:
    title: str
    url: str
    snippet: str


class WebSearchTool(BuiltinTool):
    name = "web_search"
    description = (
        "Search the web. Returns a numbered list of results, each with its title, URL and a "
        "short snippet. Use web_fetch to read a result's page."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        required={"query": {"type": "string", "description": "What to search for."}},
        optional={
            "max_results": {
                "type": "integer",
                "description": f"How many results, 1-{MAX_SEARCH_RESULTS} "
                f"(default {SEARCH_RESULTS}).",
            }
        },
    )

    def __init__(
        self,
        brave_api_key: str | None = None,
        *,
        brave_endpoint: str = BRAVE_ENDPOINT,
        timeout: float = SEARCH_TIMEOUT_SEC,
    ) -> None:
        self._brave_api_key = brave_api_key
        self._brave_endpoint = brave_endpoint
        self._timeout = timeout

    @property
    def engine(self) -> str:
        return "Brave Search" if self._brave_api_key else "DuckDuckGo"

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        query = text_arg(args, "query", nonempty=True)
        count = int_arg(
            args, "max_results", default=SEARCH_RESULTS, minimum=1, maximum=MAX_SEARCH_RESULTS
        )
        search = (
            self._brave(query, count)
            if self._brave_api_key
            else _duckduckgo(query, count, self._timeout)
        )
        try:
            hits = await until_done(search, env.call.abort, self._timeout)
        except Aborted:
            return failure(_ABORTED)
        except TimeoutError:
            return failure(f"{self.engine} did not answer within {self._timeout:g} s")
        except _SearchFailed as exc:
            return failure(f"{self.engine} search failed: {exc}")
        details = {"engine": self.engine, "results": len(hits)}
        return ToolResult(content=_format_hits(hits[:count]), details=details)

    async def _brave(self, query: str, count: int) -> list[SearchHit]:
        assert self._brave_api_key is not None
        headers = {"X-Subscription-Token": self._brave_api_key, "Accept": "application/json"}
        try:
            async with httpx.AsyncClient(timeout=self._timeout) as client:
                response = await client.get(
                    self._brave_endpoint, params={"q": query, "count": count}, headers=headers
                )
        except httpx.HTTPError as exc:
            raise _SearchFailed(_describe_http_error(exc)) from exc
        if response.is_error:
            raise _SearchFailed(f"HTTP {response.status_code}: {response.text[:200]}")
        try:
            rows = response.json().get("web", {}).get("results", [])
        except (ValueError, AttributeError) as exc:
            raise _SearchFailed("the answer was not the expected JSON") from exc
        return [_hit(row.get("title"), row.get("url"), row.get("description")) for row in rows]


class _SearchFailed(Exception):
    """A search engine could not be asked or gave no usable answer."""


async def _duckduckgo(query: str, count: int, limit_sec: float) -> list[SearchHit]:
    from ddgs import DDGS  # imported on use: ddgs loads its engine list at import

    try:
        # ddgs is synchronous; a thread keeps the event loop free while it waits.
        client = DDGS(timeout=max(1, int(limit_sec)))
        rows = await asyncio.to_thread(client.text, query, max_results=count)
    except Exception as exc:  # ddgs raises its own types and whatever its HTTP stack raises
        raise _SearchFailed(f"{type(exc).__name__}: {exc}") from exc
    return [_hit(row.get("title"), row.get("href"), row.get("body")) for row in rows]


def _hit(title: object, url: object, snippet: object) -> SearchHit:
    # Engines mark matches with <strong> and escape entities; the model wants plain text.
    def plain(value: object) -> str:
        return html.unescape(_TAG.sub("", value)).strip() if isinstance(value, str) else ""

    return SearchHit(title=plain(title), url=plain(url), snippet=plain(snippet))


def _format_hits(hits: list[SearchHit]) -> str:
    if not hits:
        return "no results"
    return "\n\n".join(
        f"{i}. {hit.title}\n   {hit.url}\n   {hit.snippet}" for i, hit in enumerate(hits, 1)
    )


def _describe_http_error(exc: httpx.HTTPError) -> str:
    kind = "timed out" if isinstance(exc, httpx.TimeoutException) else type(exc).__name__
    detail = str(exc)
    return f"{kind}: {detail}" if detail else kind


@dataclass
class _Download:
    url: str
    status: int
    content_type: str
    charset: str | None
    body: ByteBudget
    declared_bytes: int | None


@dataclass
class _Redirected:
    url: str
    target: str


class WebFetchTool(BuiltinTool):
    name = "web_fetch"
    description = (
        "Fetch an http(s) URL and return its content as text: the main text of an HTML page "
        "(menus and scripts removed), or plain text and JSON as they are. Images, PDFs and "
        "other binary content are not converted."
    )
    parameters: ClassVar[dict[str, Any]] = object_schema(
        required={"url": {"type": "string", "description": "An http:// or https:// URL."}},
        optional={
            "max_chars": {
                "type": "integer",
                "description": f"Longest text to return (default {FETCH_CHARS:,}, at most "
                f"{MAX_FETCH_CHARS:,}).",
            }
        },
    )

    def __init__(
        self,
        *,
        timeout: float = FETCH_TIMEOUT_SEC,
        max_bytes: int = FETCH_MAX_BYTES,
        default_chars: int = FETCH_CHARS,
        max_chars: int = MAX_FETCH_CHARS,
        allow_private: bool = False,
        private_hosts: tuple[str, ...] = (),
        follow_other_hosts: bool = False,
    ) -> None:
        self._timeout = timeout
        self._max_bytes = max_bytes
        self._default_chars = default_chars
        self._max_chars = max_chars
        self._guard = FetchGuard(allow_private, private_hosts)
        self._follow_other_hosts = follow_other_hosts

    async def _run(self, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        url = text_arg(args, "url", nonempty=True).strip()
        limit = int_arg(
            args, "max_chars", default=self._default_chars, minimum=1, maximum=self._max_chars
        )
        problem = _check_url(url)
        if problem is not None:
            return failure(problem)
        try:
            # One deadline for the whole download; httpx's own timeouts are per network step.
            page = await until_done(self._download(url), env.call.abort, self._timeout)
        except Aborted:
            return failure(_ABORTED)
        except TimeoutError:
            return failure(f"could not fetch {url}: no complete answer within {self._timeout:g} s")
        except httpx.HTTPError as exc:
            return failure(f"could not fetch {url}: {_describe_http_error(exc)}")
        except FetchRefused as exc:
            return failure(str(exc))
        if isinstance(page, _Redirected):
            return ToolResult(
                content=f"{page.url} redirects to {page.target}, another host, so it was not "
                "followed. Call web_fetch with that URL if you need it (that host may need "
                "approval).",
                details={"url": page.url, "redirect": page.target},
            )
        if page.status >= 400:
            return failure(f"could not fetch {url}: HTTP {page.status}", status=page.status)
        return await self._convert(page, limit)

    async def _download(self, url: str) -> _Download | _Redirected:
        current = httpx.URL(url)
        async with httpx.AsyncClient(timeout=self._timeout) as client:
            for _ in range(MAX_REDIRECTS + 1):
                response = await self._get(client, current)
                try:
                    location = response.headers.get("location")
                    if not (response.is_redirect and location):
                        return await self._read(response, current)
                    following = current.join(location)
                    problem = _check_url(str(following))
                    if problem is not None:
                        raise FetchRefused(f"{current} redirects to {following}: {problem}")
                    if following.raw_host != current.raw_host and not self._follow_other_hosts:
                        return _Redirected(str(current), str(following))
                    current = following
                finally:
                    await response.aclose()
        raise FetchRefused(f"could not fetch {url}: more than {MAX_REDIRECTS} redirects")

    async def _get(self, client: httpx.AsyncClient, url: httpx.URL) -> httpx.Response:
        """GET `url` pinned to its first reachable checked address."""
        failed: httpx.ConnectError | None = None
        for address in await self._guard.addresses(url):
            target, headers, extensions = pinned(url, address)
            request = client.build_request(
                "GET", target, headers={**headers, "User-Agent": _USER_AGENT}, extensions=extensions
            )
            try:
                return await client.send(request, stream=True)
            except httpx.ConnectError as exc:
                failed = exc
        assert failed is not None  # `addresses` never returns an empty list
        raise failed

    async def _read(self, response: httpx.Response, url: httpx.URL) -> _Download:
        body = ByteBudget(self._max_bytes)
        declared = response.headers.get("content-length", "")
        page = _Download(
            url=str(url),
            status=response.status_code,
            content_type=response.headers.get("content-type", "").split(";")[0].strip(),
            charset=response.charset_encoding,
            body=body,
            declared_bytes=int(declared) if declared.isdigit() else None,
        )
        if _worth_reading(page):
            async for chunk in response.aiter_bytes():
                body.add(chunk)
                if body.overflowed:
                    break  # the size limit: stop reading, keep what fits
        return page

    async def _convert(self, page: _Download, limit: int) -> ToolResult:
        data = page.body.data
        # HTML extraction is CPU work; a thread keeps other sessions responsive.
        text = await asyncio.to_thread(to_text, data, page.content_type, page.charset, page.url)
        details = {"url": page.url, "content_type": page.content_type}
        if text is None:
            return ToolResult(
                content=f"not text: {page.content_type or 'unknown type'}, {_size(page)}",
                details=details,
            )
        notice = ""
        if page.body.overflowed:
            notice = f"\n[download stopped at the {self._max_bytes:,}-byte limit]"
        return ToolResult(content=truncate(text, limit) + notice, details=details)


def _check_url(url: str) -> str | None:
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as exc:
        return f"invalid URL {url!r}: {exc}"
    if parsed.scheme not in ("http", "https"):
        return f"only http:// and https:// URLs can be fetched, not {parsed.scheme or url!r}"
    if not parsed.host:
        return f"invalid URL {url!r}: no host"
    return None


def _worth_reading(page: _Download) -> bool:
    """An error page or a declared binary of known size is reported without downloading it."""
    if page.status >= 400:
        return False
    declared_binary = bool(page.content_type) and text_kind(page.content_type) is None
    return not (declared_binary and page.declared_bytes is not None)


def _size(page: _Download) -> str:
    if page.declared_bytes is not None:
        return f"{page.declared_bytes:,} bytes"
    more = "more than " if page.body.overflowed else ""
    return f"{more}{len(page.body.data):,} bytes"
