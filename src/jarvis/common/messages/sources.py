"""Lines of external sources (docs/sources.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "sources.digest_head": {
        "ko": "📰 [{source}] 새 글 {count}개",
        "en": "📰 [{source}] {count} new",
    },
    "sources.digest_more": {
        "ko": "… 그리고 {count}개 더",
        "en": "… and {count} more",
    },
}
