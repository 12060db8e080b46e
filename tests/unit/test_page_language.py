"""A page's language: `?lang=`, else its browser's `Accept-Language`, else the server's."""

from __future__ import annotations

import pytest

from jarvis.ui.web.page_language import browser_language, page_language


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, None),
        ("", None),
        ("en-US,en;q=0.9,ko;q=0.8", "en"),
        ("ko-KR,ko;q=0.9,en-US;q=0.8", "ko"),
        ("de-DE,de;q=0.9,en;q=0.5", "en"),  # the first Jarvis speaks
        ("fr-FR", None),
        ("*", None),
        ("ko;q=0,en", "en"),  # q=0: not acceptable
        ("EN-gb", "en"),
        ("en-US;q=0.9 , ko", "en"),
        (",,;;", None),
    ],
)
def test_browser_language(header: str | None, language: str | None) -> None:
    assert browser_language(header) == language


@pytest.mark.parametrize(
    ("query", "headers", "language"),
    [
        ({"lang": "en"}, {"accept-language": "ko-KR"}, "en"),  # the page's choice wins
        ({"lang": "xx"}, {"accept-language": "en-US"}, "en"),  # not one we speak: the browser
        ({}, {"accept-language": "en-US"}, "en"),
        ({}, {}, "ko"),  # the server's setting
    ],
)
def test_page_language(query: dict[str, str], headers: dict[str, str], language: str) -> None:
    assert page_language(query, headers, "ko") == language
