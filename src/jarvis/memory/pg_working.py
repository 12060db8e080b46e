"""Working memory in PostgreSQL (`jarvis_working_memory`): one JSON row per agent and session."""

from __future__ import annotations

from psycopg.types.json import Jsonb

from jarvis.common.pg import PoolBacked
from jarvis.memory.working import WorkingMemory, WorkingStore

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jarvis_working_memory (
    agent_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    state JSONB NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, session_id)
);
"""


class PostgresWorkingStore(PoolBacked, WorkingStore):
    schema = _SCHEMA

    async def load(self, agent_id: str, session_id: str) -> WorkingMemory:
        async with self.pool.connection() as conn:
            row = await (
                await conn.execute(
                    "SELECT state FROM jarvis_working_memory "
                    "WHERE agent_id = %s AND session_id = %s",
                    (agent_id, session_id),
                )
            ).fetchone()
        return WorkingMemory() if row is None else WorkingMemory.model_validate(row[0])

    async def save(self, agent_id: str, session_id: str, memory: WorkingMemory) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "INSERT INTO jarvis_working_memory (agent_id, session_id, state) "
                "VALUES (%s, %s, %s) ON CONFLICT (agent_id, session_id) "
                "DO UPDATE SET state = EXCLUDED.state, updated_at = now()",
                (agent_id, session_id, Jsonb(memory.model_dump())),
            )
