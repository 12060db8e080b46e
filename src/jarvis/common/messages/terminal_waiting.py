"""The terminal's waiting line between Enter and the model's first token."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "terminal.waiting": {
        "ko": "생각 중… {seconds}초 · Ctrl-C 중단",
        "en": "Thinking… {seconds}s · Ctrl-C stops",
    },
}
