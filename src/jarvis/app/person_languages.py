"""The language each person reads Jarvis in — their page's, as last opened — kept across restarts.

Lines sent to a person unasked (a run's report, a reminder, speaking first and its reflection
prompt) use it (`AppAssembly.language_of`). It is a setting of the person's screen, not a fact
about them, so it is not in the user model: `<home>/languages.json`,
`{"version": 1, "people": {user: "ko" | "en"}}`, read once at start and written (atomically, 0600)
only when a person's language changes. A file that does not parse is never overwritten: the
languages live in memory until the next start and the log says why.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from jarvis.common.atomic import atomic_write_text
from jarvis.common.i18n import Language
from jarvis.common.language import chosen_language
from jarvis.common.logging import get_logger

_log = get_logger("jarvis.languages")
FILE_NAME = "languages.json"
VERSION = 1


def parse(text: str) -> dict[str, Language]:
    """The people's languages in the file's text; ValueError when it is not the file's shape."""
    data: Any = json.loads(text)
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise ValueError(f"expected an object with version {VERSION}")
    people = data.get("people")
    if not isinstance(people, dict):
        raise ValueError("people is not an object")
    out: dict[str, Language] = {}
    for user, value in people.items():
        lang = chosen_language(value) if isinstance(value, str) else None
        if lang is not None:
            out[str(user)] = lang
    return out


class PersonLanguages(dict[str, Language]):
    """user id → language; setting one that changed writes the file (`path` None: memory only)."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__()
        self.path = path
        self.writable = True
        if path is None or not path.exists():
            return
        try:
            self.update(parse(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            self.writable = False  # the person's file is kept as it is
            _log.warning("%s unreadable, not overwritten: %s", path, exc)

    def __setitem__(self, user_id: str, lang: Language) -> None:
        if self.get(user_id) == lang:
            return
        super().__setitem__(user_id, lang)
        self._save()

    def _save(self) -> None:
        if self.path is None or not self.writable:
            return
        body = {"version": VERSION, "people": dict(sorted(self.items()))}
        try:
            atomic_write_text(self.path, json.dumps(body, ensure_ascii=False, indent=2) + "\n")
            os.chmod(self.path, 0o600)
        except OSError as exc:  # the language is still used in this process
            _log.warning("could not write %s: %s", self.path, exc)
