"""The language of one page: what it asked for (`?lang=`), else its browser's
(`Accept-Language`), else the server's setting. Every line the server sends to that page —
HTTP error details, the login gate, WebSocket lines — uses it, not the global setting."""

from __future__ import annotations

from collections.abc import Mapping

from jarvis.common.i18n import Language
from jarvis.common.language import chosen_language


def browser_language(accept_language: str | None) -> Language | None:
    """The first of the browser's languages (in its order, q weights ignored unless 0) that
    Jarvis speaks: `en-US,en;q=0.9,ko;q=0.8` → en."""
    for entry in (accept_language or "").split(","):
        tag, _, params = entry.strip().partition(";")
        if params.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            continue
        found = chosen_language(tag.strip().split("-", 1)[0].lower())
        if found is not None:
            return found
    return None


def page_language(
    query: Mapping[str, str], headers: Mapping[str, str], default: Language
) -> Language:
    return asked_language(query, headers) or default


def asked_language(query: Mapping[str, str], headers: Mapping[str, str]) -> Language | None:
    """What the page asked for or its browser says; None: nothing Jarvis speaks."""
    return chosen_language(query.get("lang")) or browser_language(headers.get("accept-language"))
