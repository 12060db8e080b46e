"""Input validation, the first stage of the security pipeline (SPEC §7)."""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

from jarvis.common.i18n import Language, t

# `on*=` only counts inside a tag (`<img onerror=…>`), so prose like "onion=3" passes.
_SCRIPT_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("<script", re.compile(r"<\s*script\b", re.IGNORECASE)),
    ("javascript:", re.compile(r"javascript\s*:", re.IGNORECASE)),
    ("on*=", re.compile(r"<[^>]*\bon[a-z]+\s*=", re.IGNORECASE)),
)


@dataclass(frozen=True)
class ValidationResult:
    ok: bool
    text: str = ""
    error: str = ""
    code: str = ""


def validate_input(text: str, *, max_length: int, lang: Language = "ko") -> ValidationResult:
    """Refuse empty, over-long or script-bearing input; NFC-normalise and escape the rest."""
    normalised = unicodedata.normalize("NFC", text).strip()
    if not normalised:
        return ValidationResult(ok=False, error=t("validation.empty", lang), code="empty")
    if len(normalised) > max_length:
        message = t("validation.too_long", lang, length=len(normalised), limit=max_length)
        return ValidationResult(ok=False, error=message, code="too_long")
    for label, pattern in _SCRIPT_PATTERNS:
        if pattern.search(normalised):
            message = t("validation.script", lang, pattern=label)
            return ValidationResult(ok=False, error=message, code="script")
    return ValidationResult(ok=True, text=html.escape(normalised, quote=False))
