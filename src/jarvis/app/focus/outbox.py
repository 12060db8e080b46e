"""Transitions made outside a server reach the open windows: `jarvis focus start|pause|resume|
stop` in a terminal is another process, with no connection to any window.

The CLI drops what it would tell the owner's windows (`focus_state`, `focus_panel`) into
`~/.jarvis/focus/.outbox/` — one file per change, written atomically. Every serve process
watches that folder (inotify: no wake-up while nothing changes). A process claims a file by
renaming it (only one rename can succeed), then sends its events through the hub: to its own
windows, and with PostgreSQL through NOTIFY to every other process's — so each window hears
each change once, however many processes serve. A file nobody claims (no server running) is
dropped by the next `post` after `STALE_SEC`; a window opened later reads the files anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from jarvis.common import inotify
from jarvis.common.atomic import atomic_write_text
from jarvis.common.clock import new_id, now_ms
from jarvis.common.logging import get_logger

_log = get_logger("jarvis.focus")
OUTBOX = ".outbox"
STALE_SEC = 24 * 3600
_SUFFIX = ".json"

Send = Callable[[str, dict[str, Any]], Awaitable[None]]


def outbox(home: Path) -> Path:
    return home / "focus" / OUTBOX


def _wanted(name: str) -> bool:
    return name.endswith(_SUFFIX) and not name.startswith(".")  # not a temp file mid-write


def post(home: Path, events: list[tuple[str, dict[str, Any]]]) -> Path | None:
    """Leave `(owner, event)` pairs for the serving processes, in order, as one file."""
    if not events:
        return None
    folder = outbox(home)
    folder.mkdir(parents=True, exist_ok=True)
    _drop_stale(folder)
    # Time first, so the names sort in the order the changes were made.
    path = folder / f"{now_ms():015d}-{new_id()[:12]}{_SUFFIX}"
    rows = [{"user": user, "event": event} for user, event in events]
    atomic_write_text(path, json.dumps(rows, ensure_ascii=False))
    return path


def _drop_stale(folder: Path) -> None:
    limit = now_ms() / 1000 - STALE_SEC
    for path in folder.iterdir():
        with contextlib.suppress(OSError):
            if path.stat().st_mtime < limit:
                path.unlink()


def claim(path: Path) -> list[dict[str, Any]] | None:
    """The rows of `path` when this process is the one that took it, else None."""
    taken = path.with_name(f"{path.name}.{os.getpid()}.taken")
    try:
        os.rename(path, taken)
    except OSError:
        return None  # another process took it first (or it is gone)
    try:
        rows = json.loads(taken.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        _log.warning("focus outbox %s unreadable: %s", path.name, exc)
        rows = []
    finally:
        taken.unlink(missing_ok=True)
    return [row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else []


class FocusOutbox:
    """The serving side: sends what `post` left, once per change across processes."""

    def __init__(self, home: Path, send: Send) -> None:
        self.folder = outbox(home)
        self.send = send
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            # Watching before the first look: a file posted in between is seen either way.
            changes = inotify.watch_folder(self.folder, _wanted, self._stop)
        except OSError as exc:  # serving goes on; terminal changes show at the next reload
            _log.warning("focus outbox %s not watched: %s", self.folder, exc)
            return
        self._task = asyncio.create_task(self._run(changes))

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self, changes: Any) -> None:
        try:
            await self.drain()
            async for _paths in changes:
                await self.drain()
        except Exception:  # a dead watcher costs only live updates: the panel re-reads files
            _log.exception("watching %s stopped", self.folder)

    async def drain(self) -> int:
        """Send every file this process claims, oldest first; how many it sent."""
        try:
            names = sorted(name for name in os.listdir(self.folder) if _wanted(name))
        except OSError:
            return 0
        sent = 0
        for name in names:
            rows = claim(self.folder / name)
            for row in rows or []:
                event = row.get("event")
                if not isinstance(event, dict):
                    continue
                try:
                    await self.send(str(row.get("user", "")), event)
                except Exception as exc:  # e.g. the database away: this update is lost only
                    _log.warning("focus outbox: an update not sent: %s", exc)
            sent += rows is not None
        return sent
