"""What the HUD showed that the session history does not keep, so a reload shows it again.

The history keeps messages; it does not keep that a turn was stopped (a stopped turn records no
answer), how long each tool ran (every entry of a turn carries the time it was written) or that
a call was killed. These marks do, one JSON line each in `<home>/hud/marks/<session>.jsonl`:

- `{"kind": "tool", "call": id, "ms": run time, "killed": bool, "ts_ms": …}` when a call ends.
  The run time starts when the tool starts, or when its approval was granted: the time a person
  took to decide is not the tool's.
- `{"kind": "stopped", "ts_ms": …}` when a turn ends by Stop.
- `{"kind": "thought", "event": …, "ts_ms": …}`: a line of the "thoughts" view in ACTIVITY — a
  route, a thought's frame or end, a speaking-first pass sent to a window of this session
  (thought_marks.py).

`GET /api/sessions/{id}/marks` returns them (routes_sessions.py); the page merges them with the
history (app.js). Marks are written beside the turn and never hold one up: a failed write is
logged and the screen simply shows less after a reload.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from jarvis.agent_layer.events import MessageUpdate
from jarvis.common.jsonl import JsonlWriter, read_objects
from jarvis.common.logging import get_logger
from jarvis.core.session import AgentSession
from jarvis.ui.web.thought_marks import THOUGHT_EVENTS, thought_mark

_log = get_logger("jarvis.web.marks")
Sink = Callable[[dict[str, Any]], None]
_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")
MAX_MARKS = 2000  # the newest a reload gets back
# The only event types `mark_for` reads; every other event (most: streamed text) is not dumped.
_MARKED = frozenset({"tool_execution_start", "tool_execution_end", "agent_end"})
_PASSES_SEEN = 64  # per session: the pass ids already marked (a window told twice)


def mark_for(event: dict[str, Any], started: dict[str, int], now_ms: int) -> dict[str, Any] | None:
    """The mark one session event leaves (None for most); `started` holds each running call's
    start, updated here. Pure: table-tested."""
    kind = event.get("type")
    if kind == "tool_execution_start":
        started[str(event.get("tool_call_id"))] = now_ms
        return None
    if kind == "tool_execution_end":
        call = str(event.get("tool_call_id"))
        began = started.pop(call, now_ms)
        decision = event.get("decision") or {}
        killed = decision.get("outcome") == "aborted"
        return {"kind": "tool", "call": call, "ms": max(0, now_ms - began), "killed": killed}
    if kind == "agent_end" and event.get("ended_by") == "aborted":
        started.clear()
        return {"kind": "stopped"}
    return None


class ScreenMarks:
    """The marks of every session this server shows (`folder` None: kept in memory only)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._watched: dict[str, AgentSession] = {}
        self._started: dict[str, dict[str, int]] = {}
        self._memory: dict[str, list[dict[str, Any]]] = {}
        self._passes: dict[str, list[str]] = {}
        self._folder_made = False

    def watch(self, session: AgentSession) -> None:
        """Record this session's marks from now on (once per live session object)."""
        if self._watched.get(session.id) is session:
            return
        self._watched[session.id] = session
        started = self._started.setdefault(session.id, {})

        def sink(event: BaseModel) -> None:
            if type(event) is MessageUpdate:  # most events of a turn
                return
            kind = getattr(event, "type", None)
            if kind in THOUGHT_EVENTS:
                self._mark(session.id, thought_mark(event.model_dump(mode="json")))
            if kind not in _MARKED:
                return
            data = event.model_dump(
                mode="json", include={"type", "tool_call_id", "decision", "ended_by"}
            )
            mark = mark_for(data, started, session.setup.clock.now_ms())
            if mark is not None:
                self._write(session.id, {**mark, "ts_ms": session.setup.clock.now_ms()})

        session.subscribe(sink)

    def passes(self, session_id: str, send: Sink) -> Sink:
        """`send` for a window of this session that also marks each speaking-first pass it is
        sent (once per session, however many windows)."""

        def sink(event: dict[str, Any]) -> None:
            if event.get("type") == "proactive_pass":
                seen = self._passes.setdefault(session_id, [])
                pass_id = str(event.get("pass_id"))
                if pass_id not in seen:
                    seen[:] = [*seen[-_PASSES_SEEN + 1 :], pass_id]
                    self._mark(session_id, thought_mark(event))
            send(event)

        return sink

    def _mark(self, session_id: str, mark: dict[str, Any] | None) -> None:
        session = self._watched.get(session_id)
        if mark is not None and session is not None:
            self._write(session_id, {**mark, "ts_ms": session.setup.clock.now_ms()})

    def approved(self, session_id: str, tool_call_id: str, now_ms: int) -> None:
        """An approval was granted: the call's run time starts now."""
        started = self._started.get(session_id)
        if started is not None and tool_call_id in started:
            started[tool_call_id] = now_ms

    def marks(self, session_id: str) -> list[dict[str, Any]]:
        path = self._path(session_id)
        if path is None:
            return list(self._memory.get(session_id, []))[-MAX_MARKS:]
        if not path.exists():
            return []
        try:
            rows = [row for _, row in read_objects(path) if isinstance(row, dict)]
        except OSError as exc:
            _log.warning("screen marks unreadable: %s", exc)
            return []
        return rows[-MAX_MARKS:]

    def forget(self, session_id: str) -> None:
        self._watched.pop(session_id, None)
        self._started.pop(session_id, None)
        self._memory.pop(session_id, None)
        self._passes.pop(session_id, None)
        path = self._path(session_id)
        if path is not None:
            path.unlink(missing_ok=True)

    def _path(self, session_id: str) -> Path | None:
        if self.folder is None or not _SAFE_ID.match(session_id):
            return None
        return self.folder / f"{session_id}.jsonl"

    def _write(self, session_id: str, mark: dict[str, Any]) -> None:
        path = self._path(session_id)
        if path is None:
            self._memory.setdefault(session_id, []).append(mark)
            return
        try:
            if not self._folder_made:  # once, not a `mkdir` call per mark (one per turn)
                path.parent.mkdir(parents=True, exist_ok=True)
                self._folder_made = True
            JsonlWriter(path).append([json.dumps(mark, ensure_ascii=False)])
        except OSError as exc:  # the screen shows less after a reload; the turn goes on
            self._folder_made = False  # made again next time, should it have gone
            _log.warning("screen mark not written: %s", exc)
