"""Which new entries a source says, and the digest text."""

from __future__ import annotations

from jarvis.common.i18n import Language, t
from jarvis.core.sources.entries import Entry

MAX_LINES = 20


def matches(entry: Entry, keywords: list[str]) -> bool:
    """Any keyword in the title or summary (case-insensitive); no keywords = every entry."""
    words = [k.casefold().strip() for k in keywords if k.strip()]
    if not words:
        return True
    text = f"{entry.title}\n{entry.summary}".casefold()
    return any(word in text for word in words)


def digest_text(source_id: str, entries: list[Entry], lang: Language) -> str:
    """One message: a head line, then one line per entry (title — link)."""
    lines = [t("sources.digest_head", lang, source=source_id, count=len(entries))]
    for entry in entries[:MAX_LINES]:
        title = " ".join(entry.title.split()) or entry.link
        lines.append(f"• {title}" + (f" — {entry.link}" if entry.link else ""))
    if len(entries) > MAX_LINES:
        lines.append(t("sources.digest_more", lang, count=len(entries) - MAX_LINES))
    return "\n".join(lines)
