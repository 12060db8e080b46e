"""`/focus <objective>` in chat starts a Focus task for the person; `/focus` lists theirs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.commands import build_commands
from jarvis.app.infra import build_app
from jarvis.app.settings import Settings
from jarvis.core.commands import CommandContext, Reply
from jarvis.core.focus.store import FocusStore


async def test_slash_focus_starts_and_lists(tmp_path: Path) -> None:
    app = build_app(Settings(home=tmp_path, workspace=tmp_path), demo=True)
    table = build_commands(AgentRegistry(app))
    command = await table.find("focus", "main")
    assert command is not None and "focus" in {c.name for c in await table.commands("main", "hud")}

    def ctx(line: str) -> CommandContext:
        session: Any = None  # the handler needs only the person and the words
        return CommandContext(session, "alice", "en", "hud", line)

    started = await command.handler(ctx("/focus read about durable engines"))
    assert isinstance(started, Reply) and "Started Focus task" in started.text
    (task,) = FocusStore(tmp_path).tasks()
    assert (task.owner, task.objective, task.status) == (
        "alice",
        "read about durable engines",
        "planning",
    )
    listed = await command.handler(ctx("/focus"))
    assert isinstance(listed, Reply) and task.id in listed.text
