"""Turns agent events into terminal lines."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from pydantic import BaseModel

from jarvis.agent_layer.events import (
    AgentEnd,
    AgentError,
    MessageUpdate,
    ToolExecutionEnd,
    ToolExecutionStart,
)

_ARG_PREVIEW = 120


class TerminalRenderer:
    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self._color = self.out.isatty()
        self._mid_line = False

    def _style(self, text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self._color else text

    def write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()
        self._mid_line = not text.endswith("\n")

    def line(self, text: str) -> None:
        if self._mid_line:
            self.write("\n")
        self.write(text + "\n")

    def __call__(self, event: BaseModel) -> None:
        if isinstance(event, MessageUpdate):
            if event.text_delta:
                self.write(event.text_delta)
        elif isinstance(event, ToolExecutionStart):
            self.line(self._style(f"⚙ {event.tool_name} {_preview(event.args)}", "36"))
        elif isinstance(event, ToolExecutionEnd):
            self.line(self._tool_end(event))
        elif isinstance(event, AgentError):
            self.line(self._style(f"✗ {event.message}", "31"))
        elif isinstance(event, AgentEnd):
            if self._mid_line:
                self.write("\n")
        elif getattr(event, "type", None) == "validation_error":
            self.line(self._style(f"✗ {getattr(event, 'message', '')}", "33"))

    def _tool_end(self, event: ToolExecutionEnd) -> str:
        decision = event.decision or {}
        reason = decision.get("reason")
        suffix = f" · {reason}" if reason and reason != "not_required" else ""
        if event.is_error:
            first = event.result_preview.splitlines()[0] if event.result_preview else ""
            return self._style(f"✗ {event.tool_name}{suffix}: {first[:160]}", "31")
        return self._style(f"✓ {event.tool_name}{suffix}", "32")


def _preview(args: dict[str, Any]) -> str:
    text = json.dumps(args, ensure_ascii=False)
    return text if len(text) <= _ARG_PREVIEW else text[: _ARG_PREVIEW - 1] + "…"
