"""Pure recall judgements: how recalled items are ranked, and how episodes are filtered."""

from __future__ import annotations

from dataclasses import dataclass

from jarvis.memory.episodes import Episode
from jarvis.memory.store import MemoryItem, tokens
from jarvis.memory.working import WorkingMemory
from jarvis.model_layer.embeddings import cosine

# Weights keep one shared word worth more than anything else but a cosine: rehearsal (at most
# 0.5) beats recency (at most 0.2), so what the conversation is about stays in view.
REHEARSAL_WEIGHT = 0.5
RECENCY_WEIGHT = 0.2
COSINE_WEIGHT = 1.0
RECENCY_HALF_LIFE_MS = 7 * 24 * 3600 * 1000


def recall_score(
    item: MemoryItem,
    *,
    words: set[str],
    rehearsals: int,
    newest_ms: int,
    query_vector: list[float] | None,
) -> float:
    """Text relevance + cosine (when both sides are embedded) + rehearsal + recency."""
    relevance = float(item.relevance or len(words & tokens(item.text)))
    similarity = 0.0
    # Vectors from another embedder (before `/remember reembed`) have another length.
    if (
        query_vector is not None
        and item.embedding is not None
        and len(item.embedding) == len(query_vector)
    ):
        similarity = COSINE_WEIGHT * cosine(query_vector, item.embedding)
    rehearsal = REHEARSAL_WEIGHT * rehearsals / (rehearsals + 1)
    age = max(0, newest_ms - item.ts_ms)
    recency = RECENCY_WEIGHT * float(0.5 ** (age / RECENCY_HALF_LIFE_MS))
    return relevance + similarity + rehearsal + recency


def rank_recalled(
    items: list[MemoryItem],
    query: str,
    working: WorkingMemory,
    query_vector: list[float] | None = None,
) -> list[MemoryItem]:
    """Best first; among equal scores the store's order (newest first)."""
    words = tokens(query)
    newest = max((item.ts_ms for item in items), default=0)
    position = {item.id: index for index, item in enumerate(items)}
    scores = {
        item.id: recall_score(
            item,
            words=words,
            rehearsals=working.rehearsals.get(item.id, 0),
            newest_ms=newest,
            query_vector=query_vector,
        )
        for item in items
    }
    return sorted(items, key=lambda item: (-scores[item.id], position[item.id]))


@dataclass(frozen=True)
class EpisodeFilter:
    """What `recall_episodes` asks for; every field is optional."""

    kind: str | None = None
    outcome: str | None = None
    since_ms: int | None = None
    until_ms: int | None = None
    text: str | None = None
    limit: int = 10


def filter_episodes(episodes: list[Episode], wanted: EpisodeFilter) -> list[Episode]:
    """Matching episodes, newest first (the input is oldest first)."""
    needle = (wanted.text or "").lower()
    found = [
        episode
        for episode in reversed(episodes)
        if (wanted.kind is None or episode.kind == wanted.kind)
        and (wanted.outcome is None or episode.outcome == wanted.outcome)
        and (wanted.since_ms is None or episode.ts_ms >= wanted.since_ms)
        and (wanted.until_ms is None or episode.ts_ms <= wanted.until_ms)
        and (not needle or needle in f"{episode.utterance}\n{episode.answer}".lower())
    ]
    return found[: max(0, wanted.limit)]
