"""One suite for the audit logs (memory, audit.jsonl, PostgreSQL `jarvis_audit`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from jarvis.core.approvals.audit import AuditLog, AuditRecord, JsonlAuditLog
from jarvis.core.approvals.pg_audit import PostgresAuditLog
from tests.support.postgres import postgres_dsn


@pytest.fixture(params=["memory", "jsonl", "postgres"])
async def audit(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[AuditLog]:
    if request.param == "memory":
        yield AuditLog()
    elif request.param == "jsonl":
        yield JsonlAuditLog(tmp_path / "audit.jsonl")
    else:
        async for dsn in postgres_dsn():
            log = await PostgresAuditLog.connect(dsn)
            yield log
            await log.aclose()


def record(n: int, **fields: str) -> AuditRecord:
    values = {
        "user": "local",
        "agent": "main",
        "session": "s1",
        "tool": "bash",
        "outcome": "allow",
        **fields,
    }
    return AuditRecord(ts_ms=1000 + n, turn=n, source="builtin", reason=f"r{n}", **values)


async def test_query_returns_the_newest_matching_oldest_first(audit: AuditLog) -> None:
    for n in range(5):
        await audit.append(record(n, outcome="deny" if n % 2 else "allow"))
    await audit.append(record(5, user="bob", rule="approvals.yaml: allow bash ls"))
    everything = await audit.query()
    assert [r.turn for r in everything] == [0, 1, 2, 3, 4, 5]
    assert everything[-1] == record(5, user="bob", rule="approvals.yaml: allow bash ls")
    assert [r.turn for r in await audit.query(limit=2)] == [4, 5]
    assert [r.turn for r in await audit.query(outcome="deny")] == [1, 3]
    assert [r.turn for r in await audit.query(user="local", outcome="allow", limit=1)] == [4]
    assert [r.turn for r in await audit.query(user="bob", tool="bash", session="s1")] == [5]
    assert await audit.query(session="other") == []


async def test_an_unknown_filter_is_an_error(audit: AuditLog) -> None:
    with pytest.raises(ValueError, match="unknown audit filter"):
        await audit.query(command="ls")


async def test_a_torn_jsonl_line_is_skipped_and_costs_no_later_line(tmp_path: Path) -> None:
    log = JsonlAuditLog(tmp_path / "audit.jsonl")
    await log.append(record(1))
    with log.path.open("a", encoding="utf-8") as handle:
        handle.write('{"ts_ms": 5, "us')  # a crash mid-write
    await log.append(record(2))
    assert [r.turn for r in await log.query()] == [1, 2]
