"""Steering a Focus task: pause, resume (an interrupted step becomes a new attempt), stop;
only the owner; a transition the state machine refuses is refused with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jarvis.app.focus.tasks import FocusNotAllowed, FocusTasks
from jarvis.core.focus.state import FocusStep, FocusTask


async def test_pause_resume_stop_and_the_owner(tmp_path: Path) -> None:
    sent: list[dict[str, Any]] = []

    async def send(user: str, event: dict[str, Any]) -> None:
        sent.append({"user": user, **event})

    tasks = FocusTasks(tmp_path, lambda: 1000, "en", send)
    task = tasks.start("read about durable workflows")
    assert task.status == "planning" and task.id.startswith("read-about-durable")
    with pytest.raises(PermissionError):
        await tasks.act(task.id, "pause", "someone-else")
    assert (await tasks.act(task.id, "pause", "local")).status == "paused"
    with pytest.raises(FocusNotAllowed, match="cannot pause a task that is paused"):
        await tasks.act(task.id, "pause", "local")
    resumed = await tasks.act(task.id, "resume", "local")
    assert (resumed.status, resumed.plan_attempt) == ("planning", 2)  # no plan yet: plan again

    def interrupted(task: FocusTask) -> bool:
        task.steps = [
            FocusStep(title="a", status="done"),
            FocusStep(title="b", status="interrupted"),
        ]
        task.status = "interrupted"
        return True

    tasks.store.update(task.id, interrupted)
    resumed = await tasks.act(task.id, "resume", "local")
    assert resumed.status == "waiting"
    assert [(s.status, s.attempt) for s in resumed.steps] == [("done", 1), ("pending", 2)]
    assert (await tasks.act(task.id, "stop", "local")).status == "cancelled"
    with pytest.raises(FocusNotAllowed):
        await tasks.act(task.id, "resume", "local")
    panels = [e for e in sent if e["type"] == "focus_panel"]
    assert {e["area"] for e in panels} == {"plan", "log", "references", "analysis"}
    assert len(panels) == 4 * 4  # every area after each of the four moves
    assert panels[-1]["state"] == "cancelled" and not panels[-1]["busy"]
    states = [e for e in sent if e["type"] == "focus_state"]
    assert [(e["type"], e["previous"], e["state"]) for e in states] == [
        ("focus_state", "planning", "paused"),
        ("focus_state", "paused", "planning"),
        ("focus_state", "interrupted", "waiting"),
        ("focus_state", "waiting", "cancelled"),
    ]
    log = tasks.store.read_area(task.id, "log.md")
    assert "stop: waiting → cancelled" in log
    with pytest.raises(LookupError):
        tasks.get("no-such-task")
