"""What a step's answer adds to the task (pure): its findings, each with the URLs it cites.

A finding is a `- ` / `* ` bullet of the answer; an answer without bullets is one finding
(`summary`). The item key is the finding's position, so the same answer replayed gives the
same keys and the store keeps one record per (step, item).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jarvis.core.focus.urls import urls_in

_BULLET = re.compile(r"^\s*[-*]\s+(.+)$", re.MULTILINE)
MAX_FINDINGS = 50
MAX_FINDING_CHARS = 2000


@dataclass(frozen=True)
class Finding:
    item: str
    text: str
    urls: tuple[str, ...]


def findings(answer: str) -> list[Finding]:
    bullets = [m.group(1).strip() for m in _BULLET.finditer(answer)][:MAX_FINDINGS]
    if not bullets:
        text = answer.strip()
        return [Finding("summary", text[:MAX_FINDING_CHARS], tuple(urls_in(text)))] if text else []
    return [
        Finding(f"f{i}", text[:MAX_FINDING_CHARS], tuple(urls_in(text)))
        for i, text in enumerate(bullets, 1)
    ]
