"""The `focus` tool: the model proposes a Focus task (docs/focus.md); the person approves the
call (the gate always asks: `requires_approval`, and the tool is in `no_standing_consent`, so
no rule — not even an ALWAYS — approves it), and only then is the task created. The server's
ticker plans it and runs its steps, as for `/focus <objective>`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from jarvis.agent_layer.tools import ToolResult
from jarvis.app.focus.tasks import FocusTasks, Send
from jarvis.common.i18n import Language, t
from jarvis.core.focus.state import MAX_OBJECTIVE
from jarvis.core.tools.base import Tool, ToolArgumentError, ToolEnv


class FocusTool(Tool):
    name: ClassVar[str] = "focus"
    description: ClassVar[str] = (
        "Propose a Focus task: long research or writing work on one objective that Jarvis "
        "plans into steps and works through over hours, keeping a log, numbered references "
        "and findings, and that survives restarts (the user approves it first). Use it for "
        "work too long for one answer."
    )
    parameters: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {"objective": {"type": "string", "description": "What to work on"}},
        "required": ["objective"],
    }
    requires_approval = True  # a standing action: the person approves each proposal

    def __init__(
        self, home: Path, now_ms: Callable[[], int], lang: Language, send: Send | None
    ) -> None:
        self.home = home
        self.now_ms = now_ms
        self.lang = lang
        self.send = send

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        objective = " ".join(str(args.get("objective", "")).split())
        if not objective:
            raise ToolArgumentError("objective is required")
        if len(objective) > MAX_OBJECTIVE:
            raise ToolArgumentError(f"objective longer than {MAX_OBJECTIVE} characters")
        tasks = FocusTasks(self.home, self.now_ms, self.lang, self.send)
        task = tasks.start(objective, owner=env.call.user_id)
        await tasks.announce(task, "")
        line = t("focus.tool_started", self.lang, task=task.id, objective=task.objective)
        return ToolResult(content=line, details={"focus": task.id, "status": task.status})
