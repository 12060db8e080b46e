"""The files of a Focus task, `~/.jarvis/focus/<task_id>/`:

* `state.json` — the task (`FocusTask`), replaced atomically; every read-modify-write holds the
  task's lock file (`fcntl.flock`), so the CLI and a server never lose each other's change.
* `log.md` — an append-only human log, one line per entry.
* `references.md` — `[n] url — title` lines, numbered in order of first citation and
  de-duplicated by normalised URL: a URL cited again keeps its number (rewritten atomically).
* `analysis.jsonl` — append-only records, one per (step, item) key: a replayed step cannot add
  a record twice. A torn last line (a crash mid-append) is skipped, as in the session store.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jarvis.common.atomic import atomic_write_text
from jarvis.common.jsonl import JsonlWriter, json_line, read_objects
from jarvis.core.focus.state import TASK_ID, FocusTask
from jarvis.core.focus.urls import normalise_url

_REFERENCE = re.compile(r"^\[(\d+)\] (\S+)(?: — (.*))?$")


@dataclass(frozen=True)
class Reference:
    number: int
    url: str
    title: str = ""

    @property
    def line(self) -> str:
        return f"[{self.number}] {self.url}" + (f" — {self.title}" if self.title else "")


class FocusStore:
    def __init__(self, home: Path) -> None:
        self.root = home / "focus"

    def folder(self, task_id: str) -> Path:
        if not TASK_ID.match(task_id):
            raise ValueError(f"invalid focus task id {task_id!r}: use a-z, 0-9, '-' and '_'")
        return self.root / task_id

    @contextlib.contextmanager
    def locked(self, task_id: str) -> Iterator[Path]:
        folder = self.folder(task_id)
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield folder
        finally:
            os.close(fd)  # closing releases the lock

    # -- state.json ---------------------------------------------------------------------------
    def create(self, task: FocusTask) -> None:
        with self.locked(task.id) as folder:
            if (folder / "state.json").exists():
                raise FileExistsError(f"focus task {task.id!r} exists")
            self._write(folder, task)

    def load(self, task_id: str) -> FocusTask | None:
        try:
            text = (self.folder(task_id) / "state.json").read_text(encoding="utf-8")
            return FocusTask.model_validate_json(text)
        except (OSError, ValueError):
            return None

    def tasks(self) -> list[FocusTask]:
        if not self.root.is_dir():
            return []
        tasks = [self.load(p.name) for p in sorted(self.root.iterdir()) if TASK_ID.match(p.name)]
        return [t for t in tasks if t is not None]

    def update(self, task_id: str, change: Callable[[FocusTask], bool]) -> FocusTask | None:
        """Apply `change` under the task's lock; saved when it returns True. The task as it is
        afterwards (None: no such task)."""
        with self.locked(task_id) as folder:
            task = self.load(task_id)
            if task is not None and change(task):
                self._write(folder, task)
            return task

    @staticmethod
    def _write(folder: Path, task: FocusTask) -> None:
        atomic_write_text(folder / "state.json", task.model_dump_json(indent=2) + "\n")

    # -- log.md -------------------------------------------------------------------------------
    def log(self, task_id: str, line: str) -> None:
        text = " ".join(line.split())  # one entry, one line
        JsonlWriter(self.folder(task_id) / "log.md", fsync=True).append([f"- {text}"])

    def read_area(self, task_id: str, area: str) -> str:
        try:
            return (self.folder(task_id) / area).read_text(encoding="utf-8")
        except OSError:
            return ""

    # -- references.md ------------------------------------------------------------------------
    def references(self, task_id: str) -> list[Reference]:
        found: list[Reference] = []
        for line in self.read_area(task_id, "references.md").splitlines():
            match = _REFERENCE.match(line)
            if match:
                found.append(Reference(int(match[1]), match[2], match[3] or ""))
        return found

    def cite(self, task_id: str, url: str, title: str = "") -> int:
        """The reference number of `url`: its number when a normalised equal URL is cited
        already, else the next one (appended)."""
        with self.locked(task_id) as folder:
            known = self.references(task_id)
            key = normalise_url(url)
            for ref in known:
                if normalise_url(ref.url) == key:
                    return ref.number
            number = max((r.number for r in known), default=0) + 1
            clean_title = " ".join(title.split())[:200]
            line = Reference(number, key, clean_title).line
            # Rewritten whole (small): a crash leaves the old list or the new, never half a line.
            text = "".join(f"{r.line}\n" for r in known) + line + "\n"
            atomic_write_text(folder / "references.md", text)
            return number

    # -- analysis.jsonl -----------------------------------------------------------------------
    def analysis(self, task_id: str) -> list[dict[str, Any]]:
        path = self.folder(task_id) / "analysis.jsonl"
        if not path.exists():
            return []
        return [record for _, record in read_objects(path) if record is not None]

    def analyse(self, task_id: str, step: int, item: str, record: dict[str, Any]) -> bool:
        """Append the record of (step, item) unless one is there; True when appended."""
        with self.locked(task_id) as folder:
            if any(r.get("step") == step and r.get("item") == item for r in self.analysis(task_id)):
                return False
            line = json_line({"step": step, "item": item, **record})
            JsonlWriter(folder / "analysis.jsonl", fsync=True).append([line])
            return True
