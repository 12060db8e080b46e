"""`titles.json` beside the JSONL session files: the titles people gave their sessions.

Small (one line per renamed session), rewritten whole on a change through a temporary file and
an atomic rename, and re-read only when its mtime changes. An unreadable or damaged file means
"no chosen titles" (the sessions keep their first-line titles), with one warning.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from jarvis.common.logging import get_logger

_log = get_logger("jarvis.sessions")
TITLES_FILE = "titles.json"


class TitleFile:
    def __init__(self, path: Path, *, fsync: bool = False) -> None:
        self.path = path
        self.fsync = fsync
        self._stamp: int | None = None
        self._titles: dict[str, str] = {}

    def get(self, session_id: str) -> str | None:
        return self._read().get(session_id)

    def set(self, session_id: str, title: str | None) -> None:
        """Set (or with None, forget) one session's title."""
        titles = dict(self._read())
        if title is None:
            if titles.pop(session_id, None) is None:
                return
        else:
            titles[session_id] = title
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with temporary.open("w", encoding="utf-8") as handle:
            json.dump(titles, handle, ensure_ascii=False, indent=0)
            if self.fsync:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(temporary, self.path)
        self._titles, self._stamp = titles, self.path.stat().st_mtime_ns

    def _read(self) -> dict[str, str]:
        try:
            stamp = self.path.stat().st_mtime_ns
        except FileNotFoundError:
            self._titles, self._stamp = {}, None
            return self._titles
        if stamp == self._stamp:
            return self._titles
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            _log.warning(
                "%s: cannot read chosen session titles (%s); using first lines", self.path, exc
            )
            loaded = {}
        self._titles = (
            {str(k): str(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}
        )
        self._stamp = stamp
        return self._titles
