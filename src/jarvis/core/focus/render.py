"""A Focus task's areas as Markdown for the panel (pure), bounded in size."""

from __future__ import annotations

import json
from typing import Any

from jarvis.core.focus.state import FocusTask

AREAS = ("plan", "log", "references", "analysis")
# An event may travel through PostgreSQL NOTIFY (8000 bytes): the panel shows the newest part,
# the whole area is read from the files (`jarvis focus show`, the HUD on reload).
MAX_PANEL_CHARS = 2_400
_MARK = {"pending": "☐", "running": "▶", "done": "☑", "interrupted": "⚠", "failed": "✗"}


def plan_markdown(task: FocusTask) -> str:
    head = f"**{task.objective}** — `{task.status}`\n\n"
    lines = [
        f"{n}. {_MARK.get(s.status, '?')} {s.title}" + (f" (#{s.attempt})" if s.attempt > 1 else "")
        for n, s in enumerate(task.steps, 1)
    ]
    return head + ("\n".join(lines) if lines else "_…_")


def analysis_markdown(records: list[dict[str, Any]]) -> str:
    lines = []
    for record in records:
        refs = "".join(f" [{n}]" for n in record.get("refs", []))
        text = str(record.get("text", "")) or json.dumps(record, ensure_ascii=False)
        lines.append(f"- ({record.get('step')}) {text}{refs}")
    return "\n".join(lines)


def bounded(markdown: str, limit: int = MAX_PANEL_CHARS) -> str:
    """The end of `markdown` when it is longer than `limit` (the newest lines matter most)."""
    if len(markdown) <= limit:
        return markdown
    cut = markdown[-limit:]
    return "…\n" + cut.split("\n", 1)[-1]


def state_event(task: FocusTask, previous: str, number: int | None) -> dict[str, Any]:
    """The `focus_state` event of a transition (seed 004's events table)."""
    return {
        "type": "focus_state",
        "task_id": task.id,
        "state": task.status,
        "previous": previous,
        "step": number,
        "steps": len(task.steps),
        "objective": task.objective,
        "detail": task.detail,
    }
