"""`~/.jarvis/user_model.json`: every person's facts, one file, 0600, written atomically.

The file is the person's to read and edit: it is re-read when its size or modification time
changes, and a file that does not parse is never overwritten (the edit is kept, extraction
waits and says why in the log).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from jarvis.common.atomic import atomic_write_text
from jarvis.common.logging import get_logger
from jarvis.core.user_model.facts import FIELDS, Fact

_log = get_logger("jarvis.user_model")
FILE_NAME = "user_model.json"
VERSION = 1
_SOURCES = ("stated", "inferred", "corrected")
_STATUSES = ("active", "tentative", "retired")


class UserModelFileError(Exception):
    pass


def _fact(data: Any) -> Fact:
    if not isinstance(data, dict):
        raise UserModelFileError("a fact is not an object")
    try:
        fact = Fact(
            id=str(data["id"]),
            field=data["field"],
            value=str(data["value"]),
            source=data["source"],
            status=data["status"],
            evidence=str(data.get("evidence", "")),
            first_seen_ms=int(data["first_seen_ms"]),
            last_seen_ms=int(data["last_seen_ms"]),
            pinned=bool(data.get("pinned", False)),
            retired_reason=str(data.get("retired_reason", "")),
            sessions=tuple(str(s) for s in data.get("sessions", ())),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise UserModelFileError(f"bad fact: {exc}") from None
    if fact.field not in FIELDS or fact.source not in _SOURCES or fact.status not in _STATUSES:
        raise UserModelFileError(f"bad fact {fact.id}: unknown field, source or status")
    return fact


def parse(text: str) -> dict[str, list[Fact]]:
    try:
        data = json.loads(text) if text.strip() else {"version": VERSION, "people": {}}
    except ValueError as exc:
        raise UserModelFileError(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise UserModelFileError(f"expected an object with version {VERSION}")
    people = data.get("people", {})
    if not isinstance(people, dict):
        raise UserModelFileError("people is not an object")
    return {str(user): [_fact(item) for item in facts or []] for user, facts in people.items()}


def render(people: dict[str, list[Fact]]) -> str:
    body = {
        "version": VERSION,
        "people": {user: [dataclasses.asdict(f) for f in facts] for user, facts in people.items()},
    }
    return json.dumps(body, ensure_ascii=False, indent=2) + "\n"


class UserModelStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = asyncio.Lock()
        self._stamp: tuple[int, int] | None = None
        self._people: dict[str, list[Fact]] = {}

    def _read(self) -> dict[str, list[Fact]]:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._stamp, self._people = None, {}
            return {}
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            people = parse(self.path.read_text(encoding="utf-8"))  # raises: keep the file
            self._stamp, self._people = stamp, people
        return self._people

    def facts(self, user_id: str) -> list[Fact]:
        """The person's facts (empty when the file is unreadable: logged, never overwritten)."""
        try:
            return list(self._read().get(user_id, []))
        except (OSError, UserModelFileError) as exc:
            _log.warning("%s unreadable: %s", self.path, exc)
            return []

    async def update(self, user_id: str, change: Any) -> Any:
        """Apply `change(facts) -> (new_facts, result)` to one person's facts and write the file
        (atomically, 0600); returns `result`. Raises UserModelFileError for a broken file."""
        async with self._lock:
            people = dict(self._read())
            facts, result = change(list(people.get(user_id, [])))
            if facts != people.get(user_id, []):
                people[user_id] = facts
                atomic_write_text(self.path, render(people))
                os.chmod(self.path, 0o600)  # personal data: private even if the file was not
                self._stamp, self._people = None, people
            return result
