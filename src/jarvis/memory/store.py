"""Long-term memory items and the store seam (in the process, SQLite file, PostgreSQL)."""

from __future__ import annotations

import contextlib
import heapq
from collections import defaultdict, deque
from collections.abc import Iterator
from typing import Literal

from pydantic import BaseModel, Field

from jarvis.memory.episodes import Episode
from jarvis.memory.word_index import WordIndex, tokens

__all__ = ["tokens"]  # re-exported: callers rank with the same words

ItemKind = Literal["fact", "semantic", "episode", "procedure", "task_pattern", "shared"]
ALL_KINDS: tuple[ItemKind, ...] = (
    "fact",
    "semantic",
    "episode",
    "procedure",
    "task_pattern",
    "shared",
)

# Turn episodes kept per (agent, user) in every store; the oldest go first. Each is 2–5 KB, so
# a person's episodes stay under a few MB however long Jarvis runs. Procedure learning needs
# only the recent successes, and recall ranks the newest first anyway.
EPISODE_LIMIT = 500
# How many of the newest lexical matches a database store ranks (recall cost stays flat).
CANDIDATES = 256


class MemoryItem(BaseModel):
    id: str
    kind: ItemKind
    agent_id: str
    user_id: str
    text: str
    session_id: str = ""
    turn: int = 0
    ts_ms: int = 0
    episode: Episode | None = Field(default=None, exclude=True)
    embedding: list[float] | None = Field(default=None, exclude=True)
    # How many query words the text shares (set by `search`, 0 elsewhere).
    relevance: float = Field(default=0.0, exclude=True)


def scored(item: MemoryItem, relevance: float) -> MemoryItem:
    """A copy of `item` carrying a search's `relevance` (the stored item is not changed). Made
    directly (no validation, nothing else changes): `model_copy(update=...)` costs twice as
    much, and recall scores every candidate on every turn."""
    copy = MemoryItem.__new__(MemoryItem)
    fields = item.__dict__.copy()
    fields["relevance"] = relevance
    object.__setattr__(copy, "__dict__", fields)
    object.__setattr__(copy, "__pydantic_fields_set__", item.model_fields_set | {"relevance"})
    object.__setattr__(copy, "__pydantic_extra__", None)
    object.__setattr__(copy, "__pydantic_private__", None)
    return copy


def shared_words(words: set[str], text: str) -> int:
    """How many query words occur in `text` (as substrings: Korean particles attach to words,
    so "배포" must match "배포는")."""
    lowered = text.lower()
    return sum(1 for word in words if word in lowered)


def rank_matches(items: list[MemoryItem], query: str, limit: int) -> list[MemoryItem]:
    """Database candidates (newest first) ranked by shared words, newest first among equals."""
    words = tokens(query)
    found = [scored(item, shared_words(words, item.text)) for item in items]
    found = [item for item in found if item.relevance > 0]
    order = {item.id: index for index, item in enumerate(found)}
    return sorted(found, key=lambda item: (-item.relevance, order[item.id]))[:limit]


class ItemStore:
    """Base class for long-term memory stores. Every store keys items by (agent, user)."""

    async def open(self) -> None:
        """Nothing to connect."""

    async def aclose(self) -> None:
        """Nothing to close."""

    async def add(self, item: MemoryItem) -> None:
        raise NotImplementedError

    async def flush(self) -> None:
        """Write what `add` may still hold back (the SQLite store batches episodes); other
        processes see it then."""

    async def of_kind(self, agent_id: str, user_id: str, kind: ItemKind) -> list[MemoryItem]:
        raise NotImplementedError

    async def listed_and_found(
        self,
        agent_id: str,
        user_id: str,
        listed: tuple[ItemKind, ...],
        query: str,
        kinds: set[ItemKind],
        limit: int,
    ) -> tuple[dict[ItemKind, list[MemoryItem]], list[MemoryItem]]:
        """A recall's reads: `of_kinds(listed)` and `search`, as one `reading`."""
        with self.reading():
            return (
                await self.of_kinds(agent_id, user_id, listed),
                await self.search(agent_id, user_id, query, kinds, limit),
            )

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Reads that belong together (a store may look once at what changed for all)."""
        yield

    async def of_kinds(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...]
    ) -> dict[ItemKind, list[MemoryItem]]:
        """`of_kind` for several kinds (a database store answers in one query)."""
        return {kind: await self.of_kind(agent_id, user_id, kind) for kind in kinds}

    async def search(
        self, agent_id: str, user_id: str, query: str, kinds: set[ItemKind], limit: int
    ) -> list[MemoryItem]:
        """Items sharing the most words with `query`, newest first among equals. A store may
        leave `episode` unset on the results (recall shows only the text)."""
        raise NotImplementedError

    async def latest(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...], limit: int
    ) -> list[MemoryItem]:
        """The newest items of these kinds, newest first."""
        raise NotImplementedError

    async def delete(self, agent_id: str, user_id: str, item_id: str) -> bool:
        raise NotImplementedError

    async def replace_episode(
        self, agent_id: str, user_id: str, item_id: str, episode: Episode
    ) -> None:
        """Store new marks on an episode (outcome, reflected, blocked)."""
        raise NotImplementedError

    async def set_embedding(self, item_id: str, embedding: list[float] | None) -> None:
        raise NotImplementedError


class InMemoryItemStore(ItemStore):
    def __init__(self, episode_limit: int = EPISODE_LIMIT) -> None:
        self.episode_limit = episode_limit
        self._items: dict[str, MemoryItem] = {}
        self._by_kind: dict[tuple[str, str, str], deque[str]] = defaultdict(deque)
        self._index = WordIndex()
        self._order: dict[str, int] = {}
        self._added = 0

    async def add(self, item: MemoryItem) -> None:
        if item.id in self._items:
            return
        self._items[item.id] = item
        self._order[item.id] = self._added
        self._added += 1
        ids = self._by_kind[(item.agent_id, item.user_id, item.kind)]
        ids.append(item.id)
        self._index.add(item.id, item.agent_id, item.user_id, item.kind, item.text)
        if item.kind == "episode":
            while len(ids) > self.episode_limit:
                self._forget(ids.popleft())

    def _forget(self, item_id: str) -> None:
        del self._items[item_id]
        del self._order[item_id]
        self._index.remove(item_id)

    def counts(self) -> tuple[int, int]:
        """Items and word-index entries held (for tests and benchmarks of the memory cap)."""
        return len(self._items), self._index.size()

    async def of_kind(self, agent_id: str, user_id: str, kind: ItemKind) -> list[MemoryItem]:
        return [self._items[i] for i in self._by_kind.get((agent_id, user_id, kind), [])]

    async def search(
        self, agent_id: str, user_id: str, query: str, kinds: set[ItemKind], limit: int
    ) -> list[MemoryItem]:
        found = self._index.search(agent_id, user_id, query, set(kinds), limit)
        return [scored(self._items[i], score) for i, score in found]

    async def latest(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...], limit: int
    ) -> list[MemoryItem]:
        ids = [i for kind in kinds for i in self._by_kind.get((agent_id, user_id, kind), [])]
        newest = heapq.nlargest(limit, ids, key=lambda i: self._order[i])
        return [self._items[i] for i in newest]

    async def delete(self, agent_id: str, user_id: str, item_id: str) -> bool:
        item = self._items.get(item_id)
        if item is None or (item.agent_id, item.user_id) != (agent_id, user_id):
            return False
        self._by_kind[(agent_id, user_id, item.kind)].remove(item_id)
        self._forget(item_id)
        return True

    async def replace_episode(
        self, agent_id: str, user_id: str, item_id: str, episode: Episode
    ) -> None:
        item = self._items.get(item_id)
        if item is not None and (item.agent_id, item.user_id) == (agent_id, user_id):
            self._items[item_id] = item.model_copy(update={"episode": episode})

    async def set_embedding(self, item_id: str, embedding: list[float] | None) -> None:
        item = self._items.get(item_id)
        if item is not None:
            self._items[item_id] = item.model_copy(update={"embedding": embedding})
