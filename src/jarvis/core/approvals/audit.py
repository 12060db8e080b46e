"""The audit log: one line per gate decision, never argument bodies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel

from jarvis.common.logging import get_logger

_log = get_logger("jarvis.audit")


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
    """Base class: a list in memory (tests); `JsonlAuditLog` is the embedded default."""

    def __init__(self) -> None:
        self.records: list[AuditRecord] = []

    def append(self, record: AuditRecord) -> None:
        self.records.append(record)

    def read(self) -> Iterator[AuditRecord]:
        return iter(list(self.records))


class JsonlAuditLog(AuditLog):
    """`audit.jsonl`: appended one line at a time; torn lines are skipped on read."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def append(self, record: AuditRecord) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(record.model_dump_json() + "\n")

    def read(self) -> Iterator[AuditRecord]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                try:
                    yield AuditRecord.model_validate(json.loads(line))
                except (ValueError, TypeError):
                    _log.warning("%s:%d: skipped an unreadable audit line", self.path, number)


def matches(record: AuditRecord, **filters: str | None) -> bool:
    """True when every given filter equals the record's field (None filters are ignored)."""
    return all(
        value is None or str(getattr(record, key)) == value for key, value in filters.items()
    )
