"""Working memory: what one agent keeps in mind within one session.

- `notes`: the session's shared work memory, shown under [작업 공유 메모리] every turn.
- `rehearsals`: how many turns each long-term item has been recalled into this session's
  context. Recall prefers items already rehearsed, so what the conversation is about stays in
  view instead of being swapped out by a newer near-match each turn.

`InMemoryWorkingStore` is the embedded default; `PostgresWorkingStore` shares it between
processes (`jarvis_working_memory`).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

NOTE_LIMIT = 20  # oldest notes drop first
# Items whose recall counts one session keeps; the least recently recalled drop first, so a
# session of thousands of turns holds a bounded map.
REHEARSAL_LIMIT = 256


class WorkingMemory(BaseModel):
    notes: list[str] = Field(default_factory=list)
    rehearsals: dict[str, int] = Field(default_factory=dict)

    def noted(self, text: str) -> WorkingMemory:
        notes = [note for note in self.notes if note != text] + [text]
        return self.model_copy(update={"notes": notes[-NOTE_LIMIT:]})

    def rehearsed(self, item_ids: list[str]) -> WorkingMemory:
        counts = dict(self.rehearsals)
        for item_id in item_ids:
            # Re-inserted at the end: dict order is then least recently recalled first.
            counts[item_id] = counts.pop(item_id, 0) + 1
        for stale in list(counts)[: max(0, len(counts) - REHEARSAL_LIMIT)]:
            del counts[stale]
        return self.model_copy(update={"rehearsals": counts})


class WorkingStore:
    """One `WorkingMemory` per (agent, session); a missing one reads as empty."""

    async def open(self) -> None:
        """Nothing to connect."""

    async def aclose(self) -> None:
        """Nothing to close."""

    async def load(self, agent_id: str, session_id: str) -> WorkingMemory:
        raise NotImplementedError

    async def save(self, agent_id: str, session_id: str, memory: WorkingMemory) -> None:
        raise NotImplementedError


class InMemoryWorkingStore(WorkingStore):
    def __init__(self) -> None:
        self._states: dict[tuple[str, str], WorkingMemory] = {}

    async def load(self, agent_id: str, session_id: str) -> WorkingMemory:
        return self._states.get((agent_id, session_id), WorkingMemory())

    async def save(self, agent_id: str, session_id: str, memory: WorkingMemory) -> None:
        self._states[(agent_id, session_id)] = memory
