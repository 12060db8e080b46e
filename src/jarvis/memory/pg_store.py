"""Long-term memory items in PostgreSQL (`jarvis_ltm_entries`), shared by every process.

Recall is the same word-overlap ranking as `InMemoryItemStore`: each row keeps its lower-cased
words (`tokens`, GIN-indexed), a query's words pick the rows sharing any (`&&`), and they rank
by how many they share, newest first among equals. pgvector is not used yet (see
docs/operations.md).
"""

from __future__ import annotations

from typing import Any

from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from jarvis.common.pg import PoolBacked
from jarvis.memory.episodes import Episode
from jarvis.memory.store import ItemKind, ItemStore, MemoryItem, tokens

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
    tokens TEXT[] NOT NULL
);
CREATE INDEX IF NOT EXISTS jarvis_ltm_kind ON jarvis_ltm_entries (agent_id, user_id, kind, seq);
CREATE INDEX IF NOT EXISTS jarvis_ltm_tokens ON jarvis_ltm_entries USING GIN (tokens);
"""
_CANDIDATES = 256
_FIELDS = "id, kind, agent_id, user_id, text, session_id, turn, ts_ms, episode"


class PostgresItemStore(PoolBacked, ItemStore):
    schema = _SCHEMA

    async def add(self, item: MemoryItem) -> None:
        episode = None if item.episode is None else Jsonb(item.episode.model_dump(mode="json"))
        async with self.pool.connection() as conn:
            await conn.execute(
                f"INSERT INTO jarvis_ltm_entries ({_FIELDS}, tokens) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
                (item.id, item.kind, item.agent_id, item.user_id, item.text, item.session_id,
                 item.turn, item.ts_ms, episode, sorted(tokens(item.text))),
            )  # fmt: skip

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
        shared = "cardinality(ARRAY(SELECT unnest(tokens) INTERSECT SELECT unnest(%s::text[])))"
        # Like the in-process posting limit: only the newest matching rows are ranked, so
        # recall stays flat as memory grows (an old item is still found by its rarer words).
        return await self._select(
            f"SELECT {_FIELDS} FROM (SELECT * FROM jarvis_ltm_entries "
            "WHERE agent_id = %s AND user_id = %s AND kind = ANY(%s::text[]) "
            f"AND tokens && %s::text[] ORDER BY seq DESC LIMIT {_CANDIDATES}) AS recent "
            f"ORDER BY {shared} DESC, seq DESC LIMIT %s",
            (agent_id, user_id, sorted(kinds), words, words, limit),
        )

    async def of_kinds(
        self, agent_id: str, user_id: str, kinds: tuple[ItemKind, ...]
    ) -> dict[ItemKind, list[MemoryItem]]:
        items = await self._select(
            f"SELECT {_FIELDS} FROM jarvis_ltm_entries "
            "WHERE agent_id = %s AND user_id = %s AND kind = ANY(%s::text[]) ORDER BY seq",
            (agent_id, user_id, list(kinds)),
        )
        return {kind: [item for item in items if item.kind == kind] for kind in kinds}

    async def _select(self, query: str, params: tuple[Any, ...]) -> list[MemoryItem]:
        async with self.pool.connection() as conn:
            cursor = conn.cursor(row_factory=dict_row)
            rows = await (await cursor.execute(query, params)).fetchall()
        return [_item(row) for row in rows]


def _item(row: dict[str, Any]) -> MemoryItem:
    episode = row.pop("episode")
    return MemoryItem(**row, episode=None if episode is None else Episode.model_validate(episode))
