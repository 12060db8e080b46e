"""Output caps with a visible notice, so the model knows it did not see everything."""

from __future__ import annotations

DEFAULT_CAP = 30_000


def cap(text: str, limit: int = DEFAULT_CAP) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[truncated: showing {limit:,} of {len(text):,} characters]"


def cap_lines(lines: list[str], limit: int, what: str) -> str:
    if len(lines) <= limit:
        return "\n".join(lines)
    shown = "\n".join(lines[:limit])
    return f"{shown}\n[truncated: showing {limit:,} of {len(lines):,} {what}]"


def is_binary(head: bytes) -> bool:
    return b"\x00" in head
