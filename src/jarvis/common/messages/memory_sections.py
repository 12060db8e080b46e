"""Section headers of the memory block placed in front of the recent turns."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "memory.section.facts": {"ko": "[핵심 사실]", "en": "[Key facts]"},
    "memory.section.long_term": {"ko": "[장기 기억]", "en": "[Long-term memory]"},
    "memory.section.procedures": {"ko": "[절차 기억]", "en": "[Procedures]"},
    "memory.section.task_patterns": {"ko": "[작업 패턴]", "en": "[Task patterns]"},
    "memory.section.shared": {"ko": "[작업 공유 메모리]", "en": "[Shared work memory]"},
    # The turns a window cut kept, one line each (`memory/window.py`), in front of the rest.
    "memory.section.earlier": {"ko": "[이전 대화]", "en": "[Earlier in this conversation]"},
}
