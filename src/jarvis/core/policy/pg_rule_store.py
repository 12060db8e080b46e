"""Per-agent remembered rules in PostgreSQL (`jarvis_rules`); the shared `approvals.yaml` that
people hand-edit stays a file, read by the `RuleStore` machinery this class inherits.

Rows are never updated, only inserted (ALWAYS) and deleted (revoke), so the ordered row ids are
the version of an agent's rules: the compiled set is rebuilt only when they change. Every call
reads the rows, so a rule revoked through one process stops matching in all of them at once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool
from pydantic import ValidationError

from jarvis.common.clock import Clock
from jarvis.common.logging import get_logger
from jarvis.common.pg import PoolBacked
from jarvis.core.policy.rule_store import (
    ChangeListener,
    RulePermissionError,
    RuleStore,
    same_target,
    validate_agent_id,
)
from jarvis.core.policy.rules import Rule

TABLE_ORIGIN = "jarvis_rules"
_COLUMNS = (
    "tool",
    "action",
    "pattern",
    "granted_by",
    "granted_at",
    "session_id",
    "expires_at",
    "fingerprint",
)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS jarvis_rules (
    id BIGSERIAL PRIMARY KEY,
    agent_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    action TEXT NOT NULL,
    pattern TEXT NOT NULL,
    granted_by TEXT,
    granted_at TEXT,
    session_id TEXT,
    expires_at TEXT,
    fingerprint TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS jarvis_rules_agent ON jarvis_rules (agent_id, id);
"""
_SELECT = f"SELECT id, agent_id, {', '.join(_COLUMNS)} FROM jarvis_rules"

_log = get_logger("jarvis.core.policy.pg_rule_store")


def agent_origin(agent_id: str) -> str:
    """`jarvis_rules/main`: where a rule came from, in audit lines and the HUD."""
    return f"{TABLE_ORIGIN}/{agent_id}"


class PostgresRuleStore(PoolBacked, RuleStore):
    schema = _SCHEMA

    def __init__(
        self,
        pool: AsyncConnectionPool,
        home: Path,
        clock: Clock | None = None,
        on_change: ChangeListener | None = None,
    ):
        PoolBacked.__init__(self, pool)
        RuleStore.__init__(self, home, clock, on_change)
        self._rows: dict[str, tuple[tuple[int, ...], tuple[Rule, ...]]] = {}

    async def open(self) -> None:
        await PoolBacked.open(self)
        await self._import_agent_files()

    async def _import_agent_files(self) -> None:
        """Rules granted on the files backend come along: each `approvals/<agent>.yaml` rule
        not already in the table is inserted once (the file is left as it was)."""
        for origin in RuleStore._agent_origins(self):
            agent_id = RuleStore.agent_of(self, origin)
            file_rules = self._fresh(origin).rules
            if agent_id is None or not file_rules:
                continue
            _, present = await self._agent_rules(agent_id)
            seen = {_identity(rule) for rule in present}
            new = [rule for rule in file_rules if _identity(rule) not in seen]
            for rule in new:
                await self._append(agent_id, rule)
            if new:
                _log.warning("imported %d rule(s) from %s into jarvis_rules", len(new), origin)

    _files_only = False  # the agent's rules are rows: another process may change them

    def agent_of(self, origin: str) -> str | None:
        prefix = f"{TABLE_ORIGIN}/"
        return origin.removeprefix(prefix) if origin.startswith(prefix) else None

    def _agent_origins(self) -> list[str]:
        return []  # per-agent files are not read on this backend

    async def _agent_rules(self, agent_id: str) -> tuple[object, tuple[Rule, ...]]:
        validate_agent_id(agent_id)
        async with self.pool.connection() as conn:
            cursor = conn.cursor(row_factory=dict_row)
            query = f"{_SELECT} WHERE agent_id = %s ORDER BY id"
            rows = await (await cursor.execute(query, (agent_id,))).fetchall()
        ids = tuple(row["id"] for row in rows)
        cached = self._rows.get(agent_id)
        if cached is None or cached[0] != ids:
            cached = self._rows[agent_id] = (ids, tuple(_rules(rows)))
        return ids, cached[1]

    async def _append(self, agent_id: str, rule: Rule) -> None:
        values = rule.model_dump()
        async with self.pool.connection() as conn:
            await conn.execute(
                f"INSERT INTO jarvis_rules (agent_id, {', '.join(_COLUMNS)}) "
                f"VALUES (%s, {', '.join(['%s'] * len(_COLUMNS))})",
                (agent_id, *(values[column] for column in _COLUMNS)),
            )

    def _own_unreadable(self, agent_id: str) -> str | None:
        return None  # rows that do not validate are skipped one by one (see `_pairs`)

    async def _revoke_own(
        self, agent_id: str, probe: Rule, may_remove: Callable[[Rule], bool]
    ) -> list[Rule]:
        async with self.pool.connection() as conn, conn.transaction():
            cursor = conn.cursor(row_factory=dict_row)
            query = f"{_SELECT} WHERE agent_id = %s AND tool = %s FOR UPDATE"
            rows = await (await cursor.execute(query, (agent_id, probe.tool))).fetchall()
            matching = [(row, rule) for row, rule in _pairs(rows) if same_target(rule, probe)]
            doomed = [(row, rule) for row, rule in matching if may_remove(rule)]
            if matching and not doomed:
                raise RulePermissionError(
                    f"{probe.tool} {probe.pattern}: granted by someone else; "
                    "only they or an admin may revoke it"
                )
            if doomed:
                ids = [row["id"] for row, _ in doomed]
                await conn.execute("DELETE FROM jarvis_rules WHERE id = ANY(%s)", (ids,))
        return [rule for _, rule in doomed]

    async def _listing(self) -> dict[str, list[Rule]]:
        async with self.pool.connection() as conn:
            cursor = conn.cursor(row_factory=dict_row)
            rows = await (await cursor.execute(f"{_SELECT} ORDER BY agent_id, id")).fetchall()
        listing: dict[str, list[Rule]] = {}
        for row, rule in _pairs(rows):
            listing.setdefault(agent_origin(row["agent_id"]), []).append(rule)
        return listing


def _identity(rule: Rule) -> str:
    return rule.model_dump_json()


def _pairs(rows: list[dict[str, Any]]) -> list[tuple[dict[str, Any], Rule]]:
    """Each readable row with its rule; a row someone edited into nonsense is logged and
    skipped."""
    pairs = []
    for row in rows:
        values = {column: row[column] for column in _COLUMNS if row[column] is not None}
        try:
            pairs.append(
                (row, Rule.model_validate({**values, "origin": agent_origin(row["agent_id"])}))
            )
        except ValidationError as exc:
            _log.error("jarvis_rules row %s skipped: %s", row["id"], exc.errors()[0]["msg"])
    return pairs


def _rules(rows: list[dict[str, Any]]) -> list[Rule]:
    return [rule for _, rule in _pairs(rows)]
