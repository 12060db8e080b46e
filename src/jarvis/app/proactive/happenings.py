"""Where speaking first's event triggers come from (the edge; the decisions are in
`core/proactive/happenings.py`): goals that finished `done`, Focus steps that finished, and the
entries the sources' poller recorded as new or changed in `external_seen.jsonl`. Read only when
some agent speaks first; nothing here writes."""

from __future__ import annotations

from pathlib import Path

from jarvis.common.jsonl import read_objects
from jarvis.common.logging import get_logger
from jarvis.core.focus.store import FocusStore
from jarvis.core.proactive.happenings import Happening
from jarvis.core.scheduler.definitions import load_goals
from jarvis.core.sources.definition import load_sources
from jarvis.core.sources.seen import SEEN_FILE

_log = get_logger("jarvis.proactive")


def goals_done(home: Path) -> list[Happening]:
    found: list[Happening] = []
    for goal in load_goals(home):
        if goal.status != "done":
            continue
        at = max([goal.created_ms, goal.started_ms, *(e.ts_ms for e in goal.log)])
        text = f"{goal.objective[:160]} — {goal.detail[:160]}".rstrip(" —")
        found.append(Happening("goal_done", goal.agent, goal.owner, f"goal:{goal.id}", at, text))
    return found


def focus_steps(home: Path) -> list[Happening]:
    found: list[Happening] = []
    for task in FocusStore(home).tasks():
        for number, step in enumerate(task.steps, 1):
            if step.status != "done" or not step.finished_ms:
                continue
            key = f"focus:{task.id}:{number}:{step.attempt}"
            text = f"{task.objective[:120]} — {number}/{len(task.steps)} {step.title[:120]}"
            found.append(
                Happening("focus_step", task.agent, task.owner, key, step.finished_ms, text)
            )
    return found


def source_items(home: Path, since_ms: int) -> list[Happening]:
    """Entries recorded after `since_ms` by a source that still exists (its agent and owner)
    and that speaking first owns (`path: speaker`, `core/sources/route.py`): an entry a digest
    or an immediate message says is never also a trigger, so it is mentioned once."""
    path = home / SEEN_FILE
    if not path.exists():
        return []
    sources = {s.id: s for s in load_sources(home)[0]}
    found: list[Happening] = []
    try:
        for _, obj in read_objects(path):
            if obj is None or int(obj.get("ts_ms") or 0) <= since_ms:
                continue
            if obj.get("path") != "speaker":
                continue
            source = sources.get(str(obj.get("source") or ""))
            if source is None:
                continue
            title = str(obj.get("title") or obj.get("link") or "")[:200]
            key = f"source:{source.id}:{obj.get('content', '')}"
            at = int(obj["ts_ms"])
            text = f"{source.id}: {title}"
            found.append(Happening("source_item", source.agent, source.owner, key, at, text))
    except OSError as exc:
        _log.warning("speaking first: %s not read: %s", path, exc)
    return found


def collect(home: Path, since_ms: int) -> list[Happening]:
    return [*goals_done(home), *focus_steps(home), *source_items(home, since_ms)]
