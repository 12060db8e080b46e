"""Turning fetched bodies into text."""

from __future__ import annotations

import pytest

from jarvis.core.tools.builtins._web_text import decode, strip_tags, text_kind, to_text


@pytest.mark.parametrize(
    ("content_type", "kind"),
    [
        ("text/html", "html"),
        ("application/xhtml+xml", "html"),
        ("TEXT/HTML", "html"),
        ("application/json", "json"),
        ("application/ld+json", "json"),
        ("text/plain", "text"),
        ("text/csv", "text"),
        ("application/xml", "text"),
        ("application/rss+xml", "text"),
        ("image/png", None),
        ("application/pdf", None),
        ("application/octet-stream", None),
        ("application/zip", None),
    ],
)
def test_text_kind(content_type: str, kind: str | None) -> None:
    assert text_kind(content_type) == kind


def test_json_is_pretty_printed_and_invalid_json_kept() -> None:
    assert to_text(b'{"a":[1]}', "application/json", None, "u") == '{\n  "a": [\n    1\n  ]\n}'
    assert to_text(b"{oops", "application/json", None, "u") == "{oops"


def test_non_text_is_none() -> None:
    assert to_text(b"%PDF-1.7", "application/pdf", None, "u") is None


def test_untyped_bodies_are_sniffed() -> None:
    assert to_text(b"\x00\x01\x02", "", None, "u") is None
    assert to_text(b"just words", "", None, "u") == "just words"
    page = b"<!doctype html><html><body><p>Sniffed page</p></body></html>"
    text = to_text(page, "", None, "u")
    assert text is not None and "Sniffed page" in text and "<p>" not in text


def test_charset_is_honoured_and_unknown_ones_fall_back() -> None:
    assert decode("café".encode("latin-1"), "iso-8859-1") == "café"
    assert decode("café".encode(), "no-such-charset") == "café"


def test_strip_tags_drops_scripts_styles_and_markup() -> None:
    page = (
        "<html><head><style>p{color:red}</style><script>var x = '<p>';</script></head>"
        "<body><h1>Title</h1>\n\n\n<p>One &amp; two</p><noscript>enable js</noscript></body></html>"
    )
    assert strip_tags(page) == "Title\n\nOne & two"
