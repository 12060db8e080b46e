"""Web tools: web_search (Brave with a key, else DuckDuckGo via ddgs) and web_fetch (URL → text)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any, ClassVar

import httpx

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.tools.base import Tool, ToolEnv
from jarvis.core.tools.builtins._args import int_arg, text_arg
from jarvis.core.tools.builtins._output import cap

BRAVE_ENDPOINT = "https://api.search.brave.com/res/v1/web/search"
_TAGS = re.compile(r"<(script|style)[^>]*>.*?</\1>|<[^>]+>", re.DOTALL | re.IGNORECASE)


def _format_results(results: list[dict[str, str]]) -> str:
    if not results:
        return "no results"
    return "\n\n".join(
        f"{i}. {r['title']}\n{r['url']}\n{r['snippet']}" for i, r in enumerate(results, 1)
    )


class WebSearchTool(Tool):
    name = "web_search"
    description = "Search the web; returns titles, URLs and snippets."
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "max_results": {"type": "integer", "description": "1-20 (default 5)."},
        },
        "required": ["query"],
    }

    def __init__(
        self,
        brave_api_key: str | None = None,
        *,
        endpoint: str = BRAVE_ENDPOINT,
        timeout: float = 15.0,
    ) -> None:
        self.brave_api_key = brave_api_key
        self.endpoint = endpoint
        self.timeout = timeout

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        query = text_arg(args, "query")
        count = min(int_arg(args, "max_results", 5, minimum=1) or 5, 20)
        engine = "Brave" if self.brave_api_key else "DuckDuckGo"
        try:
            found = await (
                self._brave(query, count)
                if self.brave_api_key
                else asyncio.to_thread(_duckduckgo, query, count)
            )
        except Exception as exc:  # network, quota, parse: all reported, none raised
            return ToolResult(content=f"web search ({engine}) failed: {exc}", is_error=True)
        return ToolResult(content=_format_results(found))

    async def _brave(self, query: str, count: int) -> list[dict[str, str]]:
        assert self.brave_api_key is not None
        async with httpx.AsyncClient(timeout=self.timeout) as client:
            response = await client.get(
                self.endpoint,
                params={"q": query, "count": count},
                headers={"X-Subscription-Token": self.brave_api_key, "Accept": "application/json"},
            )
            response.raise_for_status()
        results = response.json().get("web", {}).get("results", [])
        return [
            {
                "title": r.get("title", ""),
                "url": r.get("url", ""),
                "snippet": _TAGS.sub("", r.get("description", "")),
            }
            for r in results[:count]
        ]


def _duckduckgo(query: str, count: int) -> list[dict[str, str]]:
    from ddgs import DDGS

    rows = DDGS().text(query, max_results=count)
    return [
        {"title": r.get("title", ""), "url": r.get("href", ""), "snippet": r.get("body", "")}
        for r in rows
    ]


class WebFetchTool(Tool):
    name = "web_fetch"
    description = "Fetch a web page (http/https) and return its main text."
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "url": {"type": "string"},
            "max_chars": {"type": "integer", "description": "Text limit (20000)."},
        },
        "required": ["url"],
    }

    def __init__(self, *, timeout: float = 20.0, max_bytes: int = 5_000_000) -> None:
        self.timeout = timeout
        self.max_bytes = max_bytes

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        url = text_arg(args, "url")
        max_chars = int_arg(args, "max_chars", 20_000, minimum=100) or 20_000
        if not url.startswith(("http://", "https://")):
            return ToolResult(
                content="only http:// and https:// URLs can be fetched", is_error=True
            )
        try:
            body, content_type, truncated = await self._download(url)
        except httpx.HTTPStatusError as exc:
            return ToolResult(content=f"HTTP {exc.response.status_code} for {url}", is_error=True)
        except (httpx.HTTPError, OSError) as exc:
            return ToolResult(content=f"could not fetch {url}: {exc}", is_error=True)
        text = _to_text(body, content_type)
        if text is None:
            return ToolResult(content=f"not text: {content_type or 'unknown'}, {len(body):,} bytes")
        note = f"\n[download stopped at {self.max_bytes:,} bytes]" if truncated else ""
        return ToolResult(content=cap(text, max_chars) + note)

    async def _download(self, url: str) -> tuple[bytes, str, bool]:
        async with (
            httpx.AsyncClient(timeout=self.timeout, follow_redirects=True) as client,
            client.stream("GET", url, headers={"User-Agent": "Jarvis/0.1"}) as response,
        ):
            response.raise_for_status()
            content_type = response.headers.get("content-type", "").split(";")[0].strip()
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                chunks.append(chunk)
                size += len(chunk)
                if size >= self.max_bytes:
                    return b"".join(chunks)[: self.max_bytes], content_type, True
        return b"".join(chunks), content_type, False


def _to_text(body: bytes, content_type: str) -> str | None:
    if content_type in ("text/html", "application/xhtml+xml") or (
        not content_type and body.lstrip()[:1] == b"<"
    ):
        import trafilatura

        html = body.decode("utf-8", errors="replace")
        extracted = trafilatura.extract(html, include_links=False)
        return extracted or re.sub(r"\s+", " ", _TAGS.sub(" ", html)).strip()
    if content_type == "application/json" or content_type.endswith("+json"):
        try:
            return json.dumps(json.loads(body), ensure_ascii=False, indent=2)
        except ValueError:
            return body.decode("utf-8", errors="replace")
    if content_type.startswith("text/") or not content_type:
        return body.decode("utf-8", errors="replace")
    return None
