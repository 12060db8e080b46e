"""Gate lines about paths: one it cannot follow (asks, never crashes), arguments a tool refuses."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "approval.warning.unresolvable_path": {
        "ko": "⚠ 경로가 어디로 이어지는지 알 수 없습니다 (unresolvable_path)",
        "en": "⚠ where this path leads cannot be told (unresolvable_path)",
    },
    "gate.invalid_args": {
        "ko": "{tool} 호출이 막혔습니다: {reason}",
        "en": "{tool} was not run: {reason}",
    },
    "terminal.reason.invalid_args": {
        "ko": "인자가 잘못되어 막음",
        "en": "blocked: invalid arguments",
    },
}
