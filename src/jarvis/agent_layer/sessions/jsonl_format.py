"""The session file format: one header line, then one line per entry (format 1).

Also what a damaged header still tells: a header that is not JSON or has a wrong type does not
hide the session's intact turns. Its info is rebuilt from the file name, the header's surviving
fields and the entries. The owner is taken only from an intact `"user_id": "…"` field; without
one the caller decides (see `JsonlSessionStore`), never this module.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from jarvis.agent_layer.sessions.base import SessionEntry, SessionInfo

FORMAT = 1
SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TITLE_LENGTH = 60

# A field survives only when its value is closed (a quote or digits, then `,` or `}`): a header
# torn inside `"user_id": "al` yields nothing, not the owner "al".
_TEXT_FIELD = r'"{name}"\s*:\s*"([A-Za-z0-9_.@-]{{1,64}})"\s*[,}}]'
_NUMBER_FIELD = r'"{name}"\s*:\s*(\d{{1,16}})\s*[,}}]'


def header_line(info: SessionInfo) -> str:
    header = {
        "type": "header",
        "format": FORMAT,
        "id": info.id,
        "agent_id": info.agent_id,
        "user_id": info.user_id,
        "created_ms": info.created_ms,
    }
    return json.dumps(header, ensure_ascii=False)


def entry_line(entry: SessionEntry) -> str:
    record = {
        "type": "entry",
        "turn": entry.turn,
        "ts_ms": entry.ts_ms,
        "message": entry.message.model_dump(mode="json"),
    }
    return json.dumps(record, ensure_ascii=False)


def header_info(record: dict[str, Any] | None, session_id: str) -> SessionInfo | None:
    """The info of a valid header record; None for anything else."""
    if record is None or record.get("type") != "header":
        return None
    try:
        # The file name is the id the store is addressed by; the header's copy is informative.
        info = SessionInfo.model_validate({**record, "id": session_id})
    except ValidationError:
        return None
    info.updated_ms = info.created_ms
    return info


def entry_of(record: dict[str, Any] | None) -> SessionEntry | None:
    if record is None or record.get("type") != "entry":
        return None
    try:
        return SessionEntry.model_validate(record)
    except ValidationError:
        return None


def is_other_record(record: dict[str, Any] | None) -> bool:
    """A valid JSON object that is not an entry (the header, or a type this reader ignores)."""
    return record is not None and record.get("type") != "entry"


def surviving_fields(raw: bytes | None) -> dict[str, Any]:
    """The fields still readable in a damaged header line: agent_id, user_id, created_ms."""
    text = (raw or b"").decode("utf-8", errors="replace")
    found: dict[str, Any] = {}
    for name in ("agent_id", "user_id"):
        match = re.search(_TEXT_FIELD.format(name=name), text)
        if match:
            found[name] = match.group(1)
    match = re.search(_NUMBER_FIELD.format(name="created_ms"), text)
    if match:
        found["created_ms"] = int(match.group(1))
    return found


def note_last(info: SessionInfo, entries: list[SessionEntry]) -> None:
    if entries:
        info.updated_ms = entries[-1].ts_ms
        info.turns = max(info.turns, max(entry.turn for entry in entries))


def note_entries(info: SessionInfo, entries: list[SessionEntry]) -> None:
    """Update `updated_ms`, `turns` and (if unset) `title` as the memory store does."""
    note_last(info, entries)
    if not info.title:
        user = next((e for e in entries if e.message.role == "user"), None)
        info.title = user.message.content[:TITLE_LENGTH] if user else ""
