"""The whole PostgreSQL schema: every table family is created at start, and starting again
(as every process does) changes neither the catalog nor the rows."""

from __future__ import annotations

from pathlib import Path

import psycopg

from jarvis.app.infra import build_app
from jarvis.app.settings import load_settings
from jarvis.core.approvals.audit import AuditRecord
from jarvis.core.policy.rules import Rule
from jarvis.memory import MemoryScope

TABLES = {
    "jarvis_sessions",
    "jarvis_entries",
    "jarvis_pending_approvals",
    "jarvis_rules",
    "jarvis_audit",
    "jarvis_ltm_entries",
    "jarvis_working_memory",
    "jarvis_open_loops",
}


async def catalog(dsn: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        columns = await (
            await conn.execute(
                "SELECT table_name, column_name, data_type, is_nullable, column_default "
                "FROM information_schema.columns WHERE table_schema = current_schema() "
                "ORDER BY 1, 2"
            )
        ).fetchall()
        indexes = await (
            await conn.execute(
                "SELECT indexname, indexdef FROM pg_indexes "
                "WHERE schemaname = current_schema() ORDER BY 1"
            )
        ).fetchall()
    return columns, indexes


async def test_schema_creation_twice_changes_nothing(tmp_path: Path, dsn: str) -> None:
    settings = load_settings(home=tmp_path, storage={"backend": "postgres", "postgres_dsn": dsn})
    first = build_app(settings)
    await first.open_storage()
    await first.rules.add_rule("main", Rule(tool="bash", pattern="ls"))
    await first.audit.append(
        AuditRecord(ts_ms=1, user="u", agent="main", session="s", turn=1, tool="bash",
                    source="builtin", outcome="allow", reason="not_required")
    )  # fmt: skip
    await first.memory.note(MemoryScope("main", "u", "s", 1), "keep me")
    before = await catalog(dsn)
    assert {table for table, *_ in before[0]} == TABLES

    second = build_app(settings)
    await second.open_storage()  # the schema step runs again
    assert await catalog(dsn) == before
    assert [r.pattern for r in await second.rules.rules_for("main")] == ["ls"]
    assert [r.reason for r in await second.audit.query()] == ["not_required"]
    assert (await second.memory.working.load("main", "s")).notes == ["keep me"]
    await first.close_storage()
    await second.close_storage()
