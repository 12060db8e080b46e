"""A feed site for tests: generated RSS whose entries a test mutates the way real feeds do
(ids rewritten, reordered, updated in place), with ETag / Last-Modified, and switches for
429 + Retry-After, 410 and 301. Served by pytest-httpserver on 127.0.0.1."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response


@dataclass
class Item:
    guid: str
    link: str
    title: str
    body: str = "text"
    date: str = "Fri, 04 Dec 2026 10:00:00 GMT"


@dataclass
class FeedSite:
    items: list[Item] = field(default_factory=list)
    answer: int = 200  # 200, 410, 429, 301
    location: str = ""
    retry_after: str = "600"
    requests: list[dict[str, str]] = field(default_factory=list)

    def rss(self) -> bytes:
        parts = ['<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>']
        for item in self.items:
            parts.append(
                f"<item><guid>{escape(item.guid)}</guid><link>{escape(item.link)}</link>"
                f"<title>{escape(item.title)}</title><pubDate>{item.date}</pubDate>"
                f"<description>{escape(item.body)}</description></item>"
            )
        parts.append("</channel></rss>")
        return "".join(parts).encode()

    def handle(self, request: Request) -> Response:
        self.requests.append({"path": request.path, **dict(request.headers)})
        if self.answer == 429:
            return Response("slow down", 429, {"Retry-After": self.retry_after})
        if self.answer == 410:
            return Response("gone", 410)
        if self.answer == 301:
            return Response("", 301, {"Location": self.location})
        body = self.rss()
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if request.headers.get("If-None-Match") == etag:
            return Response(status=304, headers={"ETag": etag})
        return Response(body, 200, {"Content-Type": "application/rss+xml", "ETag": etag})

    def serve(self, server: HTTPServer, path: str) -> str:
        server.expect_request(path).respond_with_handler(self.handle)
        return server.url_for(path)
