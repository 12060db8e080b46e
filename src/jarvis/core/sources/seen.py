"""What was seen: `~/.jarvis/external_seen.jsonl`, one record per entry seen or changed.

A record: `{"source", "keys": [...], "content", "ts_ms", "title", "link", "note", "path"}`:
`note` the id of the notification that says it ("" = none), `path` the one path that owns it
(`core/sources/route.py`). An entry is seen if ANY of its keys is known (from any source: the
same story in two feeds is said once); a seen entry whose content hash differs is an update,
not new. A torn last line is skipped.

An immediate batch's gate decision is one more line, written before anything is said:
`{"source", "decision": <batch note>, "spoken": [i, ...], "held_note", "held": [entries],
"due_ms"}` — the held entries inline, so the line (and the held digest's outbox) is whole or,
torn, absent.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from jarvis.common.jsonl import JsonlWriter, json_line, read_objects
from jarvis.core.sources.entries import Entry

SEEN_FILE = "external_seen.jsonl"


@dataclass
class SeenIndex:
    """Key → the latest content hash recorded for the entry holding that key."""

    content: dict[str, str] = field(default_factory=dict)

    def add(self, keys: list[str], content: str) -> None:
        for key in keys:
            self.content[key] = content

    def known(self, entry: Entry, source: str = "") -> str | None:
        """The content recorded for this entry, or None if no key of it is known."""
        for key in entry.seen_keys(source):
            if key in self.content:
                return self.content[key]
        return None


@dataclass(frozen=True)
class Sorted:
    new: list[Entry]
    updated: list[Entry]
    unchanged: int


def classify(entries: list[Entry], seen: SeenIndex, source: str = "") -> Sorted:
    """New, updated and unchanged entries of `source`'s feed; an entry twice in one batch
    counts once."""
    new: list[Entry] = []
    updated: list[Entry] = []
    unchanged = 0
    batch = SeenIndex()
    for entry in entries:
        if batch.known(entry, source) is not None:
            continue
        batch.add(entry.seen_keys(source), entry.content)
        recorded = seen.known(entry, source)
        if recorded is None:
            new.append(entry)
        elif recorded != entry.content:
            updated.append(entry)
        else:
            unchanged += 1
    return Sorted(new, updated, unchanged)


def record(
    source_id: str, entry: Entry, now_ms: int, note: str = "", path: str = ""
) -> dict[str, object]:
    return {
        "source": source_id,
        "note": note,
        "path": path,
        "keys": entry.seen_keys(source_id),
        "content": entry.content,
        "ts_ms": now_ms,
        "title": entry.title[:200],
        "link": entry.link,
        "summary": entry.summary[:500],
    }


def _short(entry: Entry) -> dict[str, str]:
    return {"title": entry.title[:200], "link": entry.link, "summary": entry.summary[:500]}


def _entry(obj: dict[str, object]) -> Entry:
    return Entry(
        id="",
        link=str(obj.get("link") or ""),
        title=str(obj.get("title") or ""),
        published="",
        summary=str(obj.get("summary") or ""),
    )


@dataclass(frozen=True)
class Outbox:
    """One notification to send: its source, its entries in order, and the time before which
    it is not started (a held digest's; 0 = now)."""

    source: str
    entries: list[Entry]
    due_ms: int = 0


@dataclass(frozen=True)
class Decision:
    """An immediate batch's gate decision: which entries were said (by index) and where the
    others went (`held_note`, said at `due_ms`)."""

    spoken: list[int]
    held_note: str = ""
    due_ms: int = 0
    gate: bool = False  # through the speaking-first gate (its messages' ids say so)


class SeenStore:
    def __init__(self, home: Path) -> None:
        self.path = home / SEEN_FILE

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Read-classify-append as one step across processes sharing the data dir (an flock
        on a file beside it): two polls finding the same story both new cannot both say it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with (self.path.parent / (SEEN_FILE + ".lock")).open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def load(self) -> SeenIndex:
        index = SeenIndex()
        if not self.path.exists():
            return index
        for _, obj in read_objects(self.path):
            if obj is None:
                continue  # a torn or oversized line: skipped
            keys = obj.get("keys")
            content = obj.get("content")
            if isinstance(keys, list) and isinstance(content, str):
                index.add([k for k in keys if isinstance(k, str)], content)
        return index

    def append(
        self,
        source_id: str,
        entries: list[Entry],
        now_ms: int,
        notes: list[str] | None = None,
        paths: list[str] | None = None,
    ) -> None:
        """Record `entries` as seen, each with its notification id ("" = none) and the path
        that owns it, in one write."""
        if not entries:
            return
        marks = notes or [""] * len(entries)
        owners = paths or [""] * len(entries)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        JsonlWriter(self.path, fsync=True).append(
            json_line(record(source_id, e, now_ms, n, p))
            for e, n, p in zip(entries, marks, owners, strict=True)
        )

    def decide(
        self, source_id: str, batch: str, held: list[Entry], decision: Decision, now_ms: int
    ) -> None:
        """Record an immediate batch's decision (and so the held digest's outbox) in one line."""
        line = {
            "source": source_id,
            "decision": batch,
            "spoken": decision.spoken,
            "held_note": decision.held_note,
            "held": [_short(e) for e in held],
            "due_ms": decision.due_ms,
            "gate": decision.gate,
            "ts_ms": now_ms,
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        JsonlWriter(self.path, fsync=True).append([json_line(line)])

    def decision(self, batch: str) -> Decision | None:
        """The recorded decision of an immediate batch, or None when none was made yet."""
        if not self.path.exists():
            return None
        for _, obj in read_objects(self.path):
            if obj is not None and obj.get("decision") == batch:
                spoken = [int(i) for i in obj.get("spoken") or []]
                note, due = str(obj.get("held_note") or ""), int(obj.get("due_ms") or 0)
                return Decision(spoken, note, due, bool(obj.get("gate")))
        return None

    def notes(self) -> dict[str, Outbox]:
        """Every notification id recorded → its outbox (source, entries in order, due): what
        the ticker starts again after a crash (an id that already ran is not run twice)."""
        found: dict[str, Outbox] = {}
        if not self.path.exists():
            return found
        for _, obj in read_objects(self.path):
            if obj is None:
                continue
            source = str(obj.get("source") or "")
            if obj.get("decision") and obj.get("held_note") and isinstance(obj.get("held"), list):
                held = [_entry(e) for e in obj["held"] if isinstance(e, dict)]
                note = str(obj["held_note"])
                found[note] = Outbox(source, held, int(obj.get("due_ms") or 0))
            elif obj.get("note"):
                note = str(obj["note"])
                found.setdefault(note, Outbox(source, [])).entries.append(_entry(obj))
        return found
