"""MemoryService: the one place memory is injected before an LLM call, and episodes recorded."""

from __future__ import annotations

from dataclasses import dataclass

from jarvis.common.clock import new_id
from jarvis.memory.config import MemorySettings
from jarvis.memory.episodes import Episode
from jarvis.memory.store import InMemoryItemStore, ItemKind, ItemStore, MemoryItem

# Section order is the seed's: facts, long-term, procedures, task patterns, shared work memory.
_SECTIONS: tuple[tuple[str, tuple[ItemKind, ...]], ...] = (
    ("[핵심 사실]", ("fact",)),
    ("[장기 기억]", ("semantic", "episode")),
    ("[절차 기억]", ("procedure",)),
    ("[작업 패턴]", ("task_pattern",)),
    ("[작업 공유 메모리]", ("shared",)),
)
_RECALLED: set[ItemKind] = {"semantic", "episode"}
_LISTED: tuple[ItemKind, ...] = ("fact", "procedure", "task_pattern", "shared")


@dataclass
class MemoryScope:
    agent_id: str
    user_id: str
    session_id: str
    turn: int


class MemoryService:
    def __init__(self, settings: MemorySettings, store: ItemStore | None = None) -> None:
        self.settings = settings
        self.store = store or InMemoryItemStore()

    @property
    def recent_turns(self) -> int:
        return self.settings.recent_turns

    async def observe(self, scope: MemoryScope, query: str) -> str:
        """The memory block placed in front of the recent turns ('' when there is nothing)."""
        if not self.settings.enabled:
            return ""
        found: dict[ItemKind, list[MemoryItem]] = {}
        for kind in _LISTED:
            found[kind] = await self.store.of_kind(scope.agent_id, scope.user_id, kind)
        recalled = await self.store.search(
            scope.agent_id, scope.user_id, query, _RECALLED, self.settings.recall_limit + 3
        )
        found["episode"] = [item for item in recalled if not self._in_window(item, scope)][
            : self.settings.recall_limit
        ]
        return _render(found)

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


def _render(found: dict[ItemKind, list[MemoryItem]]) -> str:
    blocks: list[str] = []
    for title, kinds in _SECTIONS:
        lines = [f"- {item.text}" for kind in kinds for item in found.get(kind, [])]
        if lines:
            blocks.append("\n".join([title, *lines]))
    return "\n\n".join(blocks)
