"""The earlier turns sent with a turn, as the window says (`memory/window.py`), read from the
session store: whole turns as stored (the person's words without the memory that rode with them
once, the same bytes each turn), and after a cut the turns it kept as one line each.

The carried block goes in front of the first earlier message shown whole, so it stays the same
bytes, right after the tools, until the next cut; on the cut turn itself no earlier turn is shown
whole and the block goes with this turn's message, in front of what memory recalls. That first
message (the cut turn's) is re-sent as it was sent, recall included, while the process lives
(`HistoryWindow`). It is not
recalled memory: no `memory_recalled` event names it (the HUD's MEMORY card shows only those).
"""

from __future__ import annotations

from dataclasses import dataclass

from jarvis.agent_layer.sessions.base import SessionStore
from jarvis.common.i18n import Language, t
from jarvis.memory.config import MemorySettings
from jarvis.memory.service import PERSON_WORDS_HEADER
from jarvis.memory.window import carried_block
from jarvis.model_layer.messages import Message, UserMessage


@dataclass(frozen=True)
class Recent:
    messages: list[Message]  # the earlier turns shown, the carried block in front of the first
    with_this_turn: str  # the carried block when no earlier turn is shown whole, else ''

    @property
    def conversation(self) -> list[Message]:
        """The conversation so far for a judge of this turn (the thought): the earlier turns,
        or on a cut turn the carried block as one message."""
        if self.with_this_turn:
            return [UserMessage(content=self.with_this_turn)]
        return self.messages


class HistoryWindow:
    """One session's window. It remembers what memory sent with the last cut turn (the carried
    block and that turn's recall), so the cut turn's message is re-sent as it was sent until the
    next cut: the turn after a cut then repeats the cut turn's bytes (re-sending it without its
    recall re-read the whole turn). Kept in the process only: a resumed session re-sends the
    cut turn as stored, with the carried block (one call's cache lost)."""

    def __init__(self) -> None:
        self._cut: tuple[int, str] | None = None

    def sent(self, turn: int, shown: Recent, recalled: str) -> None:
        """What memory put in front of the person's words on `turn`, if it was a cut turn."""
        if shown.with_this_turn:
            self._cut = (turn, "\n\n".join(p for p in (shown.with_this_turn, recalled) if p))

    async def recent(
        self,
        store: SessionStore,
        session_id: str,
        settings: MemorySettings,
        turn: int,
        lang: Language,
    ) -> Recent:
        """The earlier turns shown with `turn`, as the window says."""
        first = settings.first_shown_turn(turn)
        entries = await store.recent(session_id, turn - first + 1)
        carried = settings.carried_turns(turn)
        lines = carried_block(
            t("memory.section.earlier", lang),
            [[e.message for e in entries if e.turn == number] for number in carried],
        )
        whole = [e.message for e in entries if first <= e.turn < turn and e.turn not in carried]
        if not lines:
            return Recent(whole, "")
        if not whole:
            return Recent([], lines)
        head = whole[0]
        if isinstance(head, UserMessage):  # a turn's first message is the person's, stored first
            sent = self._cut[1] if self._cut and self._cut[0] == carried.stop else ""
            before = sent if sent.startswith(lines) else lines
            head = UserMessage(content=f"{before}\n\n{PERSON_WORDS_HEADER}\n{head.content}")
        return Recent([head, *whole[1:]], "")
