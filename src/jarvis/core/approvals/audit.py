"""The audit log: one line per gate decision, never argument bodies.

API (async): `append(record)`; `query(limit=…, user=…, tool=…, outcome=…, session=…)` → the
newest `limit` matching records, oldest first. `AuditLog` keeps them in memory (tests),
`JsonlAuditLog` in `audit.jsonl` (the embedded default), `PostgresAuditLog` in `jarvis_audit`.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import BaseModel

from jarvis.common.logging import get_logger

_log = get_logger("jarvis.audit")

FILTERS = ("user", "agent", "session", "tool", "outcome")


class AuditRecord(BaseModel):
    ts_ms: int
    user: str
    agent: str
    session: str
    turn: int
    tool: str
    source: str
    outcome: str
    reason: str
    rule: str | None = None


class AuditLog:
    """Base class: a list in memory."""

    def __init__(self) -> None:
        self.records: list[AuditRecord] = []

    async def open(self) -> None:
        """Nothing to connect."""

    async def aclose(self) -> None:
        """Nothing to close."""

    async def append(self, record: AuditRecord) -> None:
        self.records.append(record)

    async def query(self, *, limit: int = 200, **filters: str | None) -> list[AuditRecord]:
        return newest(self._all(), limit, filters)

    def _all(self) -> Iterable[AuditRecord]:
        return list(self.records)


class JsonlAuditLog(AuditLog):
    """`audit.jsonl`: appended one line at a time; torn lines are skipped on read."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    async def append(self, record: AuditRecord) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = (record.model_dump_json() + "\n").encode()
        with self.path.open("ab+") as handle:
            if handle.tell() > 0:
                handle.seek(-1, 2)
                if handle.read(1) != b"\n":  # a line torn by a crash: don't glue onto it
                    line = b"\n" + line
            handle.write(line)

    def _all(self) -> Iterator[AuditRecord]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                try:
                    yield AuditRecord.model_validate(json.loads(line))
                except (ValueError, TypeError):
                    _log.warning("%s:%d: skipped an unreadable audit line", self.path, number)


def newest(
    records: Iterable[AuditRecord], limit: int, filters: dict[str, str | None]
) -> list[AuditRecord]:
    """The last `limit` records whose fields equal every given filter."""
    wanted = given_filters(filters)
    kept: deque[AuditRecord] = deque(maxlen=max(limit, 0))
    for record in records:
        if all(str(getattr(record, key)) == value for key, value in wanted.items()):
            kept.append(record)
    return list(kept)


def given_filters(filters: dict[str, str | None]) -> dict[str, str]:
    """The filters that were given (None means any); an unknown name is a caller's bug."""
    unknown = set(filters) - set(FILTERS)
    if unknown:
        raise ValueError(f"unknown audit filter(s): {', '.join(sorted(unknown))}")
    return {key: value for key, value in filters.items() if value is not None}
