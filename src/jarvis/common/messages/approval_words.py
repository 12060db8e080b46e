"""Lines for approvals answered in words (web and terminal)."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "approval.words.line": {"ko": "'{text}' → {label}", "en": "'{text}' → {label}"},
    "approval.words.allow": {"ko": "허용", "en": "allowed"},
    "approval.words.always": {"ko": "항상 허용", "en": "always allowed"},
    "approval.words.deny": {"ko": "거부", "en": "denied"},
    "approval.words.unclear": {
        "ko": "'{text}' → 알아듣지 못했습니다. 아직 기다립니다 (예: '실행해', '하지 마')",
        "en": "'{text}' → not understood, still waiting (e.g. 'go ahead', 'don't')",
    },
    "approval.words.too_late": {
        "ko": "'{text}' → 이미 답이 정해진 승인입니다",
        "en": "'{text}' → this approval was already answered",
    },
}
