"""A Focus task's areas as the panel shows them: read from the task's files (whole, for
`GET /api/focus/<id>`) or as a bounded `focus_panel` event (docs/focus.md)."""

from __future__ import annotations

from typing import Any

from jarvis.core.focus.render import analysis_markdown, bounded, plan_markdown
from jarvis.core.focus.state import FocusTask
from jarvis.core.focus.store import FocusStore


def area_markdown(store: FocusStore, task: FocusTask, area: str) -> str:
    if area == "plan":
        return plan_markdown(task)
    if area == "analysis":
        return analysis_markdown(store.analysis(task.id))
    return store.read_area(task.id, f"{area}.md")


def panel_event(store: FocusStore, task: FocusTask, area: str) -> dict[str, Any]:
    return {
        "type": "focus_panel",
        "task_id": task.id,
        "state": task.status,
        "area": area,
        "markdown": bounded(area_markdown(store, task, area)),
        "busy": task.status in ("planning", "running"),
    }
