"""Long-term memory items and the store seam (memory now; PostgreSQL with scale-out)."""

from __future__ import annotations

import contextlib
import heapq
import re
from collections import defaultdict, deque
from typing import Literal

from pydantic import BaseModel, Field

from jarvis.memory.episodes import Episode

ItemKind = Literal["fact", "semantic", "episode", "procedure", "task_pattern", "shared"]

_WORD = re.compile(r"[\w가-힣]{2,}", re.UNICODE)
# ponytail: posting lists keep only the newest ids per token, so recall cost stays flat as
# memory grows; an old item is still found through its rarer words.
_POSTING_LIMIT = 64
# Turn episodes kept in process per (agent, user); the oldest go first. Each is 2–5 KB, so the
# in-process store stays under a few MB per person however long it runs. Procedure learning
# needs only the recent successes, and recall ranks the newest first anyway.
EPISODE_LIMIT = 500


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


def tokens(text: str) -> set[str]:
    return {match.group(0).lower() for match in _WORD.finditer(text)}


class ItemStore:
    """Base class for long-term memory stores."""

    async def open(self) -> None:
        """Nothing to connect."""

    async def aclose(self) -> None:
        """Nothing to close."""

    async def add(self, item: MemoryItem) -> None:
        raise NotImplementedError

    async def of_kind(self, agent_id: str, user_id: str, kind: ItemKind) -> list[MemoryItem]:
        raise NotImplementedError

    async def of_kinds(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...]
    ) -> dict[ItemKind, list[MemoryItem]]:
        """`of_kind` for several kinds (a database store answers in one query)."""
        return {kind: await self.of_kind(agent_id, user_id, kind) for kind in kinds}

    async def search(
        self, agent_id: str, user_id: str, query: str, kinds: set[ItemKind], limit: int
    ) -> list[MemoryItem]:
        """Items sharing the most words with `query`, newest first among equals."""
        raise NotImplementedError


class InMemoryItemStore(ItemStore):
    def __init__(self, episode_limit: int = EPISODE_LIMIT) -> None:
        self.episode_limit = episode_limit
        self._items: dict[str, MemoryItem] = {}
        self._by_kind: dict[tuple[str, str, str], deque[str]] = defaultdict(deque)
        self._postings: dict[tuple[str, str, str], deque[str]] = defaultdict(
            lambda: deque(maxlen=_POSTING_LIMIT)
        )
        self._order: dict[str, int] = {}
        self._added = 0

    async def add(self, item: MemoryItem) -> None:
        self._items[item.id] = item
        self._order[item.id] = self._added
        self._added += 1
        ids = self._by_kind[(item.agent_id, item.user_id, item.kind)]
        ids.append(item.id)
        for token in tokens(item.text):
            self._postings[(item.agent_id, item.user_id, token)].append(item.id)
        if item.kind == "episode":
            while len(ids) > self.episode_limit:
                self._forget(ids.popleft())

    def _forget(self, item_id: str) -> None:
        """Drop an item and its postings (an empty posting list goes too, so the word index
        shrinks with the items)."""
        item = self._items.pop(item_id)
        del self._order[item_id]
        for token in tokens(item.text):
            key = (item.agent_id, item.user_id, token)
            posting = self._postings.get(key)
            if posting is None:
                continue
            with contextlib.suppress(ValueError):
                posting.remove(item_id)
            if not posting:
                del self._postings[key]

    def counts(self) -> tuple[int, int]:
        """Items and word-index entries held (for tests and benchmarks of the memory cap)."""
        return len(self._items), sum(len(posting) for posting in self._postings.values())

    async def of_kind(self, agent_id: str, user_id: str, kind: ItemKind) -> list[MemoryItem]:
        return [self._items[i] for i in self._by_kind.get((agent_id, user_id, kind), [])]

    async def search(
        self, agent_id: str, user_id: str, query: str, kinds: set[ItemKind], limit: int
    ) -> list[MemoryItem]:
        scores: dict[str, int] = defaultdict(int)
        for token in tokens(query):
            for item_id in self._postings.get((agent_id, user_id, token), ()):
                scores[item_id] += 1
        ranked = heapq.nlargest(
            limit,
            (i for i in scores if self._items[i].kind in kinds),
            key=lambda i: (scores[i], self._order[i]),
        )
        return [self._items[i] for i in ranked]
