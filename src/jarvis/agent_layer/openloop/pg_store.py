"""Open loops in PostgreSQL (`jarvis_open_loops`), for several processes on one database."""

from __future__ import annotations

from psycopg.types.json import Jsonb

from jarvis.agent_layer.openloop.openloop_types import OpenLoop
from jarvis.agent_layer.openloop.store import OpenLoopStore
from jarvis.common.pg import PoolBacked

# Safe to run at every start.
SCHEMA = """
CREATE TABLE IF NOT EXISTS jarvis_open_loops (
    id          text PRIMARY KEY,
    agent_id    text NOT NULL,
    user_id     text NOT NULL,
    session_id  text NOT NULL,
    status      text NOT NULL,
    updated_ms  bigint NOT NULL,
    data        jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS jarvis_open_loops_owner ON jarvis_open_loops (agent_id, user_id);
"""

_UPSERT = """
INSERT INTO jarvis_open_loops (id, agent_id, user_id, session_id, status, updated_ms, data)
VALUES (%s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, updated_ms = EXCLUDED.updated_ms,
    data = EXCLUDED.data
"""


class PostgresOpenLoopStore(PoolBacked, OpenLoopStore):
    schema = SCHEMA
    max_size = 4

    async def save(self, loops: list[OpenLoop]) -> None:
        if not loops:
            return
        rows = [
            (
                lp.id,
                lp.agent_id,
                lp.user_id,
                lp.session_id,
                lp.status,
                lp.updated_ms,
                Jsonb(lp.model_dump(mode="json")),
            )
            for lp in loops
        ]
        async with self.pool.connection() as conn, conn.cursor() as cursor:
            await cursor.executemany(_UPSERT, rows)

    async def get(self, loop_id: str) -> OpenLoop | None:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT data FROM jarvis_open_loops WHERE id = %s", (loop_id,)
            )
            row = await cursor.fetchone()
        return OpenLoop.model_validate(row[0]) if row else None

    async def for_user(self, agent_id: str, user_id: str) -> list[OpenLoop]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT data FROM jarvis_open_loops WHERE agent_id = %s AND user_id = %s",
                (agent_id, user_id),
            )
            rows = await cursor.fetchall()
        return [OpenLoop.model_validate(row[0]) for row in rows]

    async def open_with_due(self) -> list[OpenLoop]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT data FROM jarvis_open_loops WHERE status = 'open' "
                "AND data->>'due_ms' IS NOT NULL"
            )
            rows = await cursor.fetchall()
        return [OpenLoop.model_validate(row[0]) for row in rows]
