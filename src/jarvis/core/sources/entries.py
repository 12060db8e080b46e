"""Entries of a feed or a page, and the keys that recognise an entry again.

RSS and Atom are parsed by `feedparser`; JSON Feed (feedparser 6 does not read it) by its
small JSON shape; an HTML page becomes one entry holding its main text (trafilatura).

An entry's keys: its id, its normalised link, and a hash of title + date. A feed that rewrites
its ids still matches by link or title + date; one that moves its links still matches by id.
`content` is a hash of what the entry says (title + summary), to tell an update from nothing.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_TRACKING = ("utm_", "fbclid", "gclid", "mc_cid", "mc_eid")


@dataclass(frozen=True)
class Entry:
    id: str
    link: str
    title: str
    published: str
    summary: str

    def seen_keys(self, source: str = "") -> list[str]:
        """Its id, normalised link and title+date hash. A bare id ("1", "post-42") is only
        unique within its feed, so it is kept per source (`id:<source>/<id>`); an id with a
        scheme (a URL, `urn:`, `tag:`) is global, so the same entry in two sources matches."""
        keys = []
        ident = self.id.strip()
        if ident:
            keys.append("id:" + (ident if ":" in ident or not source else f"{source}/{ident}"))
        link = normalise_link(self.link)
        if link:
            keys.append("link:" + link)
        if self.title.strip():
            keys.append("td:" + _hash(" ".join(self.title.split()).casefold(), self.published))
        return keys

    @property
    def content(self) -> str:
        return _hash(" ".join(self.title.split()), " ".join(self.summary.split()))


def _hash(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:20]


def normalise_link(link: str) -> str:
    """Scheme and host lower-cased, default port, fragment and tracking parameters dropped,
    the query's remaining parameters sorted, a trailing slash of the path dropped."""
    link = link.strip()
    if not link:
        return ""
    parts = urlsplit(link)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    port = parts.port
    if port and not ((scheme == "http" and port == 80) or (scheme == "https" and port == 443)):
        host = f"{host}:{port}"
    query = sorted(
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not k.lower().startswith(_TRACKING)
    )
    path = parts.path.rstrip("/") or "/"
    return urlunsplit((scheme, host, path, urlencode(query), ""))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def is_json_feed(body: bytes, content_type: str) -> bool:
    if "json" in content_type.lower():
        return True
    head = body.lstrip()[:200]
    return head.startswith(b"{") and b"jsonfeed.org" in head


def parse_json_feed(body: bytes) -> list[Entry]:
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise ValueError(f"not a JSON Feed: {exc}") from exc
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise ValueError("not a JSON Feed: no items")
    entries = []
    for item in items:
        if not isinstance(item, dict):
            continue
        summary = _text(item.get("summary")) or _text(item.get("content_text"))
        entries.append(
            Entry(
                id=str(item.get("id") or ""),
                link=_text(item.get("url")),
                title=_text(item.get("title")),
                published=_text(item.get("date_published")),
                summary=summary or _text(item.get("content_html")),
            )
        )
    return entries


def parse_feed(body: bytes, content_type: str = "") -> list[Entry]:
    """Entries of an RSS, Atom or JSON feed, in the feed's order; ValueError when it is none."""
    if is_json_feed(body, content_type):
        return parse_json_feed(body)
    import feedparser  # here, not at import: a server starts without it (~0.2 s of CPU)

    parsed = feedparser.parse(body)
    if not parsed.get("version") and not parsed.entries:
        reason = parsed.get("bozo_exception") or "no entries"
        raise ValueError(f"not a feed: {' '.join(str(reason).split())}")
    return [
        Entry(
            id=_text(item.get("id")),
            link=_text(item.get("link")),
            title=_text(item.get("title")),
            published=_text(item.get("published") or item.get("updated")),
            summary=_text(item.get("summary")),
        )
        for item in parsed.entries
    ]


def looks_like_html(body: bytes, content_type: str) -> bool:
    if "html" in content_type.lower():
        return True
    head = body.lstrip()[:300].lower()
    return head.startswith((b"<!doctype html", b"<html"))


def page_entry(body: bytes, url: str) -> Entry:
    """A page as one entry: its main text (trafilatura), keyed by its link."""
    import trafilatura  # here, not at import: a server starts without it (~0.2 s of CPU)

    html = body.decode("utf-8", errors="replace")
    text = trafilatura.extract(html, url=url, include_comments=False) or ""
    meta = trafilatura.extract_metadata(html)
    title = (meta.title if meta is not None and meta.title else "") or url
    return Entry(id="", link=url, title=title, published="", summary=text.strip())


def parse_body(body: bytes, content_type: str, url: str) -> tuple[str, list[Entry]]:
    """('feed' | 'page', entries)."""
    if looks_like_html(body, content_type):
        return "page", [page_entry(body, url)]
    return "feed", parse_feed(body, content_type)
