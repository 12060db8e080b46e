"""MemoryService: the one place memory is injected before an LLM call, and episodes recorded."""

from __future__ import annotations

from dataclasses import dataclass

from jarvis.common.clock import new_id
from jarvis.memory.config import MemorySettings
from jarvis.memory.episodes import Episode
from jarvis.memory.store import InMemoryItemStore, ItemKind, ItemStore, MemoryItem, tokens
from jarvis.memory.working import InMemoryWorkingStore, WorkingMemory, WorkingStore

# Section order is the seed's: facts, long-term, procedures, task patterns, shared work memory.
_SECTIONS: tuple[tuple[str, tuple[ItemKind, ...]], ...] = (
    ("[핵심 사실]", ("fact",)),
    ("[장기 기억]", ("semantic", "episode")),
    ("[절차 기억]", ("procedure",)),
    ("[작업 패턴]", ("task_pattern",)),
    ("[작업 공유 메모리]", ("shared",)),
)
# Put between recalled memory and the person's words in the turn's message.
PERSON_WORDS_HEADER = "[사용자 입력]"
_RECALLED: set[ItemKind] = {"semantic", "episode"}
_LISTED: tuple[ItemKind, ...] = ("fact", "procedure", "task_pattern", "shared")


@dataclass
class MemoryScope:
    agent_id: str
    user_id: str
    session_id: str
    turn: int


class MemoryService:
    def __init__(
        self,
        settings: MemorySettings,
        store: ItemStore | None = None,
        working: WorkingStore | None = None,
    ) -> None:
        self.settings = settings
        self.store = store or InMemoryItemStore()
        self.working = working or InMemoryWorkingStore()

    @property
    def recent_turns(self) -> int:
        return self.settings.recent_turns

    async def observe(self, scope: MemoryScope, query: str) -> str:
        """The memory block placed in front of the recent turns ('' when there is nothing)."""
        if not self.settings.enabled:
            return ""
        found = await self.store.of_kinds(scope.agent_id, scope.user_id, _LISTED)
        candidates = await self.store.search(
            scope.agent_id, scope.user_id, query, _RECALLED, self.settings.recall_limit + 3
        )
        working = await self.working.load(scope.agent_id, scope.session_id)
        fresh = [item for item in candidates if not self._in_window(item, scope)]
        recalled = rank_recalled(fresh, query, working)[: self.settings.recall_limit]
        if recalled:
            rehearsed = working.rehearsed([item.id for item in recalled])
            await self.working.save(scope.agent_id, scope.session_id, rehearsed)
        found["episode"] = recalled
        return _render(found, working.notes)

    async def note(self, scope: MemoryScope, text: str) -> None:
        """Add to this session's shared work memory (shown every following turn)."""
        working = await self.working.load(scope.agent_id, scope.session_id)
        await self.working.save(scope.agent_id, scope.session_id, working.noted(text))

    def _in_window(self, item: MemoryItem, scope: MemoryScope) -> bool:
        """Episodes of turns the model already sees verbatim are not recalled twice."""
        return (
            item.kind == "episode"
            and item.session_id == scope.session_id
            and item.turn >= scope.turn - self.recent_turns
        )

    async def record_episode(self, episode: Episode) -> None:
        if not self.settings.enabled:
            return
        text = f"{episode.utterance} → {episode.answer}"
        await self.store.add(
            MemoryItem(
                id=new_id(),
                kind="episode",
                agent_id=episode.agent_id,
                user_id=episode.user_id,
                text=text,
                session_id=episode.session_id,
                turn=episode.turn,
                ts_ms=episode.ts_ms,
                episode=episode,
            )
        )

    async def remember(self, scope: MemoryScope, kind: ItemKind, text: str, ts_ms: int) -> None:
        await self.store.add(
            MemoryItem(
                id=new_id(),
                kind=kind,
                agent_id=scope.agent_id,
                user_id=scope.user_id,
                text=text,
                session_id=scope.session_id,
                turn=scope.turn,
                ts_ms=ts_ms,
            )
        )

    async def episodes(self, agent_id: str, user_id: str) -> list[Episode]:
        items = await self.store.of_kind(agent_id, user_id, "episode")
        return [item.episode for item in items if item.episode is not None]


def rank_recalled(items: list[MemoryItem], query: str, working: WorkingMemory) -> list[MemoryItem]:
    """Most shared words first; among equals the item rehearsed more in this session, then the
    store's order (newest first)."""
    words = tokens(query)
    position = {item.id: index for index, item in enumerate(items)}
    return sorted(
        items,
        key=lambda item: (
            -len(words & tokens(item.text)),
            -working.rehearsals.get(item.id, 0),
            position[item.id],
        ),
    )


def _render(found: dict[ItemKind, list[MemoryItem]], notes: list[str]) -> str:
    blocks: list[str] = []
    for title, kinds in _SECTIONS:
        lines = [f"- {item.text}" for kind in kinds for item in found.get(kind, [])]
        if "shared" in kinds:
            lines += [f"- {note}" for note in notes]
        if lines:
            blocks.append("\n".join([title, *lines]))
    return "\n\n".join(blocks)
