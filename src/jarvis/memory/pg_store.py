"""Long-term memory items in PostgreSQL (`jarvis_ltm_entries`), shared by every process.

Recall uses full-text search: a `simple`-config tsvector (GIN-indexed) matched by prefix
(`배포:*` finds "배포는"), the newest `CANDIDATES` matches ranked in the process by shared
words like every other store. Embeddings are kept as a float array and compared in the process;
when the `pgvector` extension is missing a one-line notice says so at start-up.
"""

from __future__ import annotations

from typing import Any

from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from jarvis.common.logging import get_logger
from jarvis.common.pg import PoolBacked
from jarvis.memory.episodes import Episode
from jarvis.memory.store import (
    CANDIDATES,
    EPISODE_LIMIT,
    ItemKind,
    ItemStore,
    MemoryItem,
    rank_matches,
    tokens,
)

_log = get_logger("jarvis.memory")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jarvis_ltm_entries (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    session_id TEXT NOT NULL DEFAULT '',
    turn INTEGER NOT NULL DEFAULT 0,
    ts_ms BIGINT NOT NULL DEFAULT 0,
    episode JSONB,
    tokens TEXT[] NOT NULL DEFAULT '{}'
);
ALTER TABLE jarvis_ltm_entries ADD COLUMN IF NOT EXISTS embedding DOUBLE PRECISION[];
ALTER TABLE jarvis_ltm_entries ADD COLUMN IF NOT EXISTS tsv tsvector
    GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED;
CREATE INDEX IF NOT EXISTS jarvis_ltm_kind ON jarvis_ltm_entries (agent_id, user_id, kind, seq);
CREATE INDEX IF NOT EXISTS jarvis_ltm_tsv ON jarvis_ltm_entries USING GIN (tsv);
"""
_FIELDS = "id, kind, agent_id, user_id, text, session_id, turn, ts_ms, episode, embedding"


class PostgresItemStore(PoolBacked, ItemStore):
    schema = _SCHEMA
    episode_limit = EPISODE_LIMIT

    async def open(self) -> None:
        await super().open()
        async with self.pool.connection() as conn:
            row = await (
                await conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")
            ).fetchone()
        if row is None:
            _log.warning("pgvector is not installed: memory embeddings are compared in Jarvis")

    async def add(self, item: MemoryItem) -> None:
        episode = None if item.episode is None else Jsonb(item.episode.model_dump(mode="json"))
        async with self.pool.connection() as conn:
            await conn.execute(
                f"INSERT INTO jarvis_ltm_entries ({_FIELDS}) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
                (item.id, item.kind, item.agent_id, item.user_id, item.text, item.session_id,
                 item.turn, item.ts_ms, episode, item.embedding),
            )  # fmt: skip
            if item.kind == "episode":
                await conn.execute(
                    "DELETE FROM jarvis_ltm_entries WHERE agent_id = %s AND user_id = %s "
                    "AND kind = 'episode' AND seq <= (SELECT seq FROM jarvis_ltm_entries "
                    "WHERE agent_id = %s AND user_id = %s AND kind = 'episode' "
                    "ORDER BY seq DESC LIMIT 1 OFFSET %s)",
                    (item.agent_id, item.user_id, item.agent_id, item.user_id, self.episode_limit),
                )

    async def of_kind(self, agent_id: str, user_id: str, kind: ItemKind) -> list[MemoryItem]:
        return await self._select(
            f"SELECT {_FIELDS} FROM jarvis_ltm_entries "
            "WHERE agent_id = %s AND user_id = %s AND kind = %s ORDER BY seq",
            (agent_id, user_id, kind),
        )

    async def search(
        self, agent_id: str, user_id: str, query: str, kinds: set[ItemKind], limit: int
    ) -> list[MemoryItem]:
        words = sorted(tokens(query))
        if not words or not kinds or limit <= 0:
            return []
        # Words are letters, digits and '_' only, so they are safe tsquery lexemes.
        prefix_query = " | ".join(f"{word}:*" for word in words)
        candidates = await self._select(
            f"SELECT {_FIELDS} FROM jarvis_ltm_entries "
            "WHERE agent_id = %s AND user_id = %s AND kind = ANY(%s::text[]) "
            "AND tsv @@ to_tsquery('simple', %s) "
            f"ORDER BY seq DESC LIMIT {CANDIDATES}",
            (agent_id, user_id, sorted(kinds), prefix_query),
        )
        return rank_matches(candidates, query, limit)

    async def of_kinds(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...]
    ) -> dict[ItemKind, list[MemoryItem]]:
        items = await self._select(
            f"SELECT {_FIELDS} FROM jarvis_ltm_entries "
            "WHERE agent_id = %s AND user_id = %s AND kind = ANY(%s::text[]) ORDER BY seq",
            (agent_id, user_id, list(kinds)),
        )
        return {kind: [item for item in items if item.kind == kind] for kind in kinds}

    async def latest(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...], limit: int
    ) -> list[MemoryItem]:
        return await self._select(
            f"SELECT {_FIELDS} FROM jarvis_ltm_entries WHERE agent_id = %s AND user_id = %s "
            "AND kind = ANY(%s::text[]) ORDER BY seq DESC LIMIT %s",
            (agent_id, user_id, list(kinds), limit),
        )

    async def delete(self, agent_id: str, user_id: str, item_id: str) -> bool:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "DELETE FROM jarvis_ltm_entries WHERE id = %s AND agent_id = %s AND user_id = %s",
                (item_id, agent_id, user_id),
            )
        return cursor.rowcount > 0

    async def replace_episode(
        self, agent_id: str, user_id: str, item_id: str, episode: Episode
    ) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "UPDATE jarvis_ltm_entries SET episode = %s "
                "WHERE id = %s AND agent_id = %s AND user_id = %s",
                (Jsonb(episode.model_dump(mode="json")), item_id, agent_id, user_id),
            )

    async def set_embedding(self, item_id: str, embedding: list[float] | None) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "UPDATE jarvis_ltm_entries SET embedding = %s WHERE id = %s", (embedding, item_id)
            )

    async def _select(self, query: str, params: tuple[Any, ...]) -> list[MemoryItem]:
        async with self.pool.connection() as conn:
            cursor = conn.cursor(row_factory=dict_row)
            rows = await (await cursor.execute(query, params)).fetchall()
        return [_item(row) for row in rows]


def _item(row: dict[str, Any]) -> MemoryItem:
    episode = row.pop("episode")
    return MemoryItem(**row, episode=None if episode is None else Episode.model_validate(episode))
