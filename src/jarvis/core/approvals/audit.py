"""The audit log: one line per gate decision, never argument bodies.

API (async): `append(record)`; `query(limit=…, user=…, tool=…, outcome=…, session=…)` → the
newest `limit` matching records, oldest first. `AuditLog` keeps them in memory (tests),
`JsonlAuditLog` in `audit.jsonl` (the embedded default), `PostgresAuditLog` in `jarvis_audit`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import BaseModel, ValidationError

from jarvis.common.jsonl import JsonlWriter, read_objects, report_skipped
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
    # The agents that asked `agent` with ask_agent, outermost first, comma-separated ("main").
    asked_by: str | None = None


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
    """`audit.jsonl`: appended one line at a time (the shared `JsonlWriter`: a torn last line
    is never glued onto); torn or corrupt lines are skipped on read with one warning."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self._writer = JsonlWriter(path)

    async def append(self, record: AuditRecord) -> None:
        # idempotent: an audit line is an event, appended each time it happens; a retried
        # decision is two lines on purpose (the log says what was tried, not a final state).
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer.append([record.model_dump_json()])

    def _all(self) -> Iterator[AuditRecord]:
        if not self.path.exists():
            return
        skipped: list[int] = []
        for number, raw in read_objects(self.path):
            try:
                yield AuditRecord.model_validate(raw)
            except ValidationError:
                skipped.append(number)
        report_skipped(_log, self.path, skipped)


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
