"""Which new entries a source says, and the digest text."""

from __future__ import annotations

from jarvis.common.i18n import Language, t
from jarvis.core.sources.entries import Entry

MAX_LINES = 20


def matches(entry: Entry, keywords: list[str], interests: list[str] | None = None) -> bool:
    """Any keyword — or, when the source asks for them (`interests` not None), any of the
    owner's interests from the user model — in the title or summary (case-insensitive). No
    keywords and interests not asked for = every entry; asked for but none known and no
    keywords = nothing (quiet until Jarvis knows what the person cares about)."""
    words = [k.casefold().strip() for k in [*keywords, *(interests or [])] if k.strip()]
    if not words:
        return interests is None
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
