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
    "sources.tool_added": {
        "ko": "소식 출처 '{source}' ({url}) 를 꺼 둔 채로 추가했습니다. 소유자가 {host} 로의 "
        "web_fetch 를 승인하면 켜집니다 (HUD의 소식 출처 카드, `jarvis sources grant {source}`).",
        "en": "Added source '{source}' ({url}), off. It turns on once the owner pre-approves "
        "web_fetch to {host} (the HUD's Sources card, `jarvis sources grant {source}`).",
    },
}
