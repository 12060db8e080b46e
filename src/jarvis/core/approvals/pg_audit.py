"""The audit log in PostgreSQL (`jarvis_audit`): every process appends to one table."""

from __future__ import annotations

from psycopg import sql
from psycopg.rows import dict_row

from jarvis.common.pg import PoolBacked
from jarvis.core.approvals.audit import AuditLog, AuditRecord, given_filters

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jarvis_audit (
    id BIGSERIAL PRIMARY KEY,
    ts_ms BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    tool TEXT NOT NULL,
    source TEXT NOT NULL,
    outcome TEXT NOT NULL,
    reason TEXT NOT NULL,
    rule TEXT
);
CREATE INDEX IF NOT EXISTS jarvis_audit_session ON jarvis_audit (session_id, id);
ALTER TABLE jarvis_audit ADD COLUMN IF NOT EXISTS asked_by TEXT;
"""
# record field → column (`user` and friends are reserved or ambiguous words in SQL)
_COLUMN = {"user": "user_id", "agent": "agent_id", "session": "session_id"}
_FIELDS = tuple(AuditRecord.model_fields)


def _column(field: str) -> str:
    return _COLUMN.get(field, field)


class PostgresAuditLog(PoolBacked, AuditLog):
    schema = _SCHEMA

    async def append(self, record: AuditRecord) -> None:
        values = record.model_dump()
        statement = sql.SQL("INSERT INTO jarvis_audit ({}) VALUES ({})").format(
            sql.SQL(", ").join(sql.Identifier(_column(f)) for f in _FIELDS),
            sql.SQL(", ").join(sql.Placeholder() * len(_FIELDS)),
        )
        async with self.pool.connection() as conn:
            await conn.execute(statement, [values[f] for f in _FIELDS])

    async def query(self, *, limit: int = 200, **filters: str | None) -> list[AuditRecord]:
        wanted = given_filters(filters)
        where = sql.SQL(" AND ").join(
            sql.SQL("{} = %s").format(sql.Identifier(_column(key))) for key in wanted
        )
        statement = sql.SQL("SELECT * FROM jarvis_audit {} ORDER BY id DESC LIMIT %s").format(
            sql.SQL("WHERE {}").format(where) if wanted else sql.SQL("")
        )
        async with self.pool.connection() as conn:
            cursor = conn.cursor(row_factory=dict_row)
            rows = await (await cursor.execute(statement, [*wanted.values(), limit])).fetchall()
        return [
            AuditRecord(**{field: row[_column(field)] for field in _FIELDS})
            for row in reversed(rows)
        ]
