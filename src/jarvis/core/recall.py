"""Memory at the edge of a turn: the person's words go to memory as typed, and what memory
brings back is reported with its reasons (`memory_recalled`, docs/protocol.md).

The security pipeline HTML-escapes accepted input (SPEC §7) for the session and the model;
memory keeps the raw text (`&&`, `<b>`, quotes) and every display escapes it (the HUD sets
text, never HTML). Escaped text in memory showed as `&amp;&amp;` and indexed `amp` as a word.
"""

from __future__ import annotations

import html
from typing import Literal

from pydantic import BaseModel, Field

from jarvis.agent_layer.events import EventSink
from jarvis.common.i18n import Language
from jarvis.memory.service import MemoryScope, MemoryService


class RecalledItem(BaseModel):
    id: str
    kind: str
    text: str
    reason: str


class MemoryRecalled(BaseModel):
    """Long-term items memory brought into this turn, and why each one."""

    type: Literal["memory_recalled"] = "memory_recalled"
    items: list[RecalledItem] = Field(default_factory=list)


def as_typed(validated: str) -> str:
    """The person's words as typed, from the pipeline's escaped text."""
    return html.unescape(validated)


async def recall_into_turn(
    memory: MemoryService, scope: MemoryScope, validated: str, emit: EventSink, lang: Language
) -> str:
    """The memory block for this turn; the recalled items and reasons go out as an event."""
    recall = await memory.recall(scope, as_typed(validated), lang)
    if recall.recalled:
        items = [
            RecalledItem(id=item.id, kind=item.kind, text=item.text, reason=reason)
            for item, reason in recall.recalled
        ]
        emit(MemoryRecalled(items=items))
    return recall.block
