"""Sessions in PostgreSQL (`jarvis_sessions`, `jarvis_entries`); each turn reads only its window."""

from __future__ import annotations

from psycopg.types.json import Jsonb

from jarvis.agent_layer.sessions.base import (
    MESSAGE_ADAPTER,
    SessionEntry,
    SessionInfo,
    SessionNotFound,
    SessionStore,
    clean_title,
)
from jarvis.common.pg import PoolBacked

# Safe to run at every start; additive changes go in as ADD COLUMN IF NOT EXISTS.
SCHEMA = """
CREATE TABLE IF NOT EXISTS jarvis_sessions (
    id          text PRIMARY KEY,
    agent_id    text NOT NULL,
    user_id     text NOT NULL,
    created_ms  bigint NOT NULL,
    updated_ms  bigint NOT NULL,
    title       text NOT NULL DEFAULT '',
    turns       integer NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS jarvis_entries (
    seq         bigserial PRIMARY KEY,
    session_id  text NOT NULL REFERENCES jarvis_sessions (id) ON DELETE CASCADE,
    turn        integer NOT NULL,
    ts_ms       bigint NOT NULL,
    message     jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS jarvis_entries_turn ON jarvis_entries (session_id, turn);
"""

_COLUMNS = "id, agent_id, user_id, created_ms, updated_ms, title, turns"


class PostgresSessionStore(PoolBacked, SessionStore):
    schema = SCHEMA
    max_size = 8

    async def create(self, info: SessionInfo) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                f"INSERT INTO jarvis_sessions ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING",
                (
                    info.id,
                    info.agent_id,
                    info.user_id,
                    info.created_ms,
                    info.updated_ms,
                    info.title,
                    info.turns,
                ),
            )

    async def get_info(self, session_id: str) -> SessionInfo | None:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_COLUMNS} FROM jarvis_sessions WHERE id = %s", (session_id,)
            )
            row = await cursor.fetchone()
        return _info(row) if row else None

    async def list_sessions(
        self, *, agent_id: str | None = None, user_id: str | None = None
    ) -> list[SessionInfo]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_COLUMNS} FROM jarvis_sessions WHERE (%s::text IS NULL OR agent_id = %s)"
                " AND (%s::text IS NULL OR user_id = %s) ORDER BY updated_ms DESC",
                (agent_id, agent_id, user_id, user_id),
            )
            rows = await cursor.fetchall()
        return [_info(row) for row in rows]

    async def append(self, session_id: str, entries: list[SessionEntry]) -> None:
        if not entries:
            if await self.get_info(session_id) is None:
                raise SessionNotFound(session_id)
            return
        title = next((e.message.content[:60] for e in entries if e.message.role == "user"), "")
        async with self.pool.connection() as conn, conn.transaction():
            cursor = await conn.execute(
                "UPDATE jarvis_sessions SET updated_ms = %s, turns = GREATEST(turns, %s), "
                "title = CASE WHEN title = '' THEN %s ELSE title END WHERE id = %s",
                (entries[-1].ts_ms, entries[-1].turn, title, session_id),
            )
            if cursor.rowcount == 0:
                raise SessionNotFound(session_id)
            async with conn.cursor() as insert:
                await insert.executemany(
                    "INSERT INTO jarvis_entries (session_id, turn, ts_ms, message) "
                    "VALUES (%s, %s, %s, %s)",
                    [
                        (session_id, e.turn, e.ts_ms, Jsonb(e.message.model_dump(mode="json")))
                        for e in entries
                    ],
                )

    async def recent(self, session_id: str, turns: int) -> list[SessionEntry]:
        if await self.get_info(session_id) is None:
            raise SessionNotFound(session_id)
        if turns <= 0:
            return []
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT turn, ts_ms, message FROM jarvis_entries WHERE session_id = %s AND turn IN "
                "(SELECT DISTINCT turn FROM jarvis_entries WHERE session_id = %s "
                "ORDER BY turn DESC LIMIT %s) ORDER BY seq",
                (session_id, session_id, turns),
            )
            rows = await cursor.fetchall()
        return [_entry(row) for row in rows]

    async def history(self, session_id: str, limit: int | None = None) -> list[SessionEntry]:
        if await self.get_info(session_id) is None:
            raise SessionNotFound(session_id)
        if limit is not None and limit <= 0:
            return []
        async with self.pool.connection() as conn:
            # The newest `limit` rows (LIMIT NULL is no limit), turned back to oldest first.
            cursor = await conn.execute(
                "SELECT turn, ts_ms, message FROM jarvis_entries WHERE session_id = %s "
                "ORDER BY seq DESC LIMIT %s",
                (session_id, limit),
            )
            rows = await cursor.fetchall()
        return [_entry(row) for row in reversed(rows)]

    async def rename(self, session_id: str, title: str) -> bool:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "UPDATE jarvis_sessions SET title = %s WHERE id = %s",
                (clean_title(title), session_id),
            )
            return cursor.rowcount > 0

    async def delete(self, session_id: str) -> bool:
        async with self.pool.connection() as conn:  # entries go with it (ON DELETE CASCADE)
            cursor = await conn.execute("DELETE FROM jarvis_sessions WHERE id = %s", (session_id,))
            return cursor.rowcount > 0


def _info(row: tuple[object, ...]) -> SessionInfo:
    keys = _COLUMNS.split(", ")
    return SessionInfo.model_validate(dict(zip(keys, row, strict=True)))


def _entry(row: tuple[object, ...]) -> SessionEntry:
    turn, ts_ms, message = row
    return SessionEntry(
        turn=int(str(turn)), ts_ms=int(str(ts_ms)), message=MESSAGE_ADAPTER.validate_python(message)
    )
