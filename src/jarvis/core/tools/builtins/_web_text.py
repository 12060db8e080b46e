"""Turning a fetched body into text for the model: HTML → main text, text and JSON as they are."""

from __future__ import annotations

import codecs
import html
import json
import re
from typing import Literal

from jarvis.core.tools.builtins._output import SNIFF_BYTES, is_binary

_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_TEXT_TYPES = frozenset(
    {"application/xml", "application/javascript", "application/x-javascript", "application/yaml"}
)
_INVISIBLE = re.compile(r"<(script|style|noscript|template)\b.*?</\1\s*>", re.DOTALL | re.I)
_TAG = re.compile(r"<[^>]+>")
_SPACES = re.compile(r"[ \t\r\f\v]+")
_BLANK_LINES = re.compile(r"\n\s*\n\s*")


TextKind = Literal["html", "json", "text"]


def text_kind(content_type: str) -> TextKind | None:
    """How a declared content type becomes text; None for images, PDFs, archives and the like."""
    kind = content_type.lower()
    if kind in _HTML_TYPES:
        return "html"
    if kind == "application/json" or kind.endswith("+json"):
        return "json"
    if kind.startswith("text/") or kind in _TEXT_TYPES or kind.endswith("+xml"):
        return "text"
    return None


def to_text(body: bytes, content_type: str, charset: str | None, url: str) -> str | None:
    """The text of a response, or None when it is not text."""
    kind = text_kind(content_type or _sniff(body))
    if kind is None:
        return None
    text = decode(body, charset)
    if kind == "html":
        return html_to_text(text, url)
    return _pretty_json(text) if kind == "json" else text


def html_to_text(page: str, url: str | None = None) -> str:
    import trafilatura  # imported on use: it is slow to import and only web_fetch needs it

    extracted = trafilatura.extract(page, url=url, include_comments=False, include_tables=True)
    if extracted:
        return str(extracted)
    # ponytail: pages trafilatura finds no article in (tiny pages, app shells) get a crude strip.
    return strip_tags(page)


def strip_tags(page: str) -> str:
    text = html.unescape(_TAG.sub(" ", _INVISIBLE.sub(" ", page)))
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def decode(body: bytes, charset: str | None) -> str:
    encoding = charset if charset and _known_codec(charset) else "utf-8"
    return body.decode(encoding, errors="replace")


def _known_codec(name: str) -> bool:
    try:
        codecs.lookup(name)
    except LookupError:
        return False
    return True


def _sniff(body: bytes) -> str:
    """A type for a response that named none."""
    head = body[:SNIFF_BYTES]
    if is_binary(head):
        return "application/octet-stream"
    start = head.lstrip()[:15].lower()
    return "text/html" if start.startswith((b"<!doctype html", b"<html")) else "text/plain"


def _pretty_json(text: str) -> str:
    try:
        return json.dumps(json.loads(text), ensure_ascii=False, indent=2)
    except ValueError:
        return text  # invalid JSON is still worth showing as text
