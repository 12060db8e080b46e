"""One suite for where remembered per-agent rules live: agent files and PostgreSQL.

The shared hand-edited `approvals.yaml` is a file on both; PostgreSQL is checked with two
stores on one database, as two server processes would have them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

from jarvis.common.pg import lazy_pool
from jarvis.core.policy.pg_rule_store import PostgresRuleStore
from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.rules import Rule, RuleSet
from tests.support.postgres import postgres_dsn


@pytest.fixture(params=["files", "postgres"])
async def stores(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    """Two handles on one rule store (two processes sharing a home and, for PG, a database)."""
    if request.param == "files":
        yield RuleStore(tmp_path), RuleStore(tmp_path)
        return
    async for dsn in postgres_dsn():
        a = PostgresRuleStore(_pool(dsn), tmp_path)
        b = PostgresRuleStore(_pool(dsn), tmp_path)
        await a.open()
        await b.open()
        yield a, b
        await a.aclose()
        await b.aclose()


def _pool(dsn: str) -> AsyncConnectionPool:
    return lazy_pool(dsn)


def patterns(rules: RuleSet) -> list[str]:
    return [rule.pattern for rule in rules]


def granted(pattern: str, fingerprint: str | None = "fp") -> Rule:
    return Rule(
        tool="bash",
        pattern=pattern,
        granted_by="alice",
        granted_at="2026-12-01T09:00:00Z",
        session_id="s1",
        fingerprint=fingerprint,
    )


async def test_a_rule_saved_by_one_process_applies_in_the_other(stores: Any) -> None:
    a, b = stores
    assert patterns(await b.rules_for("main")) == []
    assert await a.add_rule("main", granted("git status")) is True
    (rule,) = await b.rules_for("main")
    assert rule.model_dump() == granted("git status").model_dump()  # fingerprint and grant kept
    assert patterns(await b.rules_for("karen")) == []  # per agent


async def test_always_twice_keeps_one_rule(stores: Any) -> None:
    a, b = stores
    assert await a.add_rule("main", granted("ls")) is True
    assert await b.add_rule("main", granted("ls")) is False
    assert await b.add_rule("main", granted("ls", fingerprint="new-policy")) is True  # stale one
    assert len(await a.rules_for("main")) == 2


async def test_a_shared_file_rule_is_not_copied_per_agent(stores: Any, tmp_path: Path) -> None:
    a, b = stores
    (tmp_path / "approvals.yaml").write_text("rules:\n  - {tool: bash, pattern: git status}\n")
    assert await a.add_rule("main", granted("git  status")) is False
    assert [r.origin for r in await b.rules_for("main")] == ["approvals.yaml"]


async def test_revoke_in_one_process_stops_the_rule_in_the_other(stores: Any) -> None:
    a, b = stores
    await a.add_rule("main", granted("uv run"))
    await a.add_rule("main", granted("ls"))
    assert patterns(await b.rules_for("main")) == ["uv run", "ls"]
    assert await b.revoke("main", "bash", "uv   run") == 1
    assert patterns(await a.rules_for("main")) == ["ls"]
    assert await b.revoke("main", "bash", "uv run") == 0
    assert await b.revoke("karen", "bash", "ls") == 0


async def test_list_all_names_each_agent(stores: Any) -> None:
    a, b = stores
    await a.add_rule("main", granted("ls"))
    await a.add_rule("karen", granted("pwd"))
    found = await b.list_all()
    assert next(iter(found)) == "approvals.yaml"
    by_agent = {b.agent_of(origin): [r.pattern for r in rules] for origin, rules in found.items()}
    assert by_agent == {None: [], "main": ["ls"], "karen": ["pwd"]}


async def test_bad_agent_ids_are_refused(stores: Any) -> None:
    a, _ = stores
    for call in (
        a.rules_for("../x"),
        a.add_rule("../x", granted("ls")),
        a.revoke("Main", "bash", "ls"),
    ):
        with pytest.raises(ValueError, match="agent id"):
            await call


async def test_postgres_origin_and_a_hand_broken_row_is_skipped(tmp_path: Path) -> None:
    async for dsn in postgres_dsn():  # broken rule files: test_rule_store.py
        a = PostgresRuleStore(_pool(dsn), tmp_path)
        await a.open()
        try:
            await _origin_and_broken_row(a, dsn)
        finally:
            await a.aclose()


async def _origin_and_broken_row(a: PostgresRuleStore, dsn: str) -> None:
    await a.add_rule("main", granted("ls"))
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute(
            "INSERT INTO jarvis_rules (agent_id, tool, action, pattern) "
            "VALUES ('main', 'bash', 'sometimes', 'pwd')"
        )
    (rule,) = await a.rules_for("main")
    assert rule.origin == "jarvis_rules/main" and rule.label().startswith("jarvis_rules/main: ")


async def test_rules_granted_on_files_are_imported_once(tmp_path: Path) -> None:
    folder = tmp_path / "approvals"
    folder.mkdir()
    (folder / "main.yaml").write_text(
        "rules:\n  - {tool: bash, pattern: make test, fingerprint: fp}\n"
        "  - {tool: bash, pattern: ls, expires_at: '2020-01-01T00:00:00Z'}\n"
    )
    async for dsn in postgres_dsn():
        for _ in range(2):  # a second start imports nothing more
            store = PostgresRuleStore(_pool(dsn), tmp_path)
            await store.open()
            rules = await store.rules_for("main")
            await store.aclose()
            assert [(r.pattern, r.origin) for r in rules] == [
                ("make test", "jarvis_rules/main"),
                ("ls", "jarvis_rules/main"),
            ]
    assert "make test" in (folder / "main.yaml").read_text()  # the file is left as it was
