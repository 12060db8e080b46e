"""Turns agent events into terminal lines."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Any, TextIO

from pydantic import BaseModel

from jarvis.agent_layer.events import (
    AgentEnd,
    AgentError,
    MessageUpdate,
    ToolExecutionEnd,
    ToolExecutionStart,
)
from jarvis.common.i18n import Language, t

_ARG_PREVIEW = 120
# What a terminal (or a reader) cannot see for what it is: C0/C1 controls (ESC rewrites the
# line, CR returns to its start), DEL, non-ASCII spaces (not word separators for bash),
# zero-width and bidi characters (reorder what is shown), soft hyphen, BOM. The HUD's
# `static/display.js` escapes the same set.
_INVISIBLE = (
    "\x00-\x1f\x7f-\x9f\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f"
    "\u205f-\u2064\u2066-\u206f\u3000\ufeff\ufff9-\ufffb"
)
_HIDDEN = re.compile(f"( {{3,}})|([{_INVISIBLE}])")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def visible(text: str, lang: Language = "ko", mark: Callable[[str], str] = str) -> str:
    """`text` with nothing hidden: runs of 3+ spaces become one marker, invisible characters
    become escapes (`\\x1b`, `\\u202e`, `\\n`). `mark` styles each marker/escape."""

    def shown(match: re.Match[str]) -> str:
        spaces, char = match.groups()
        if spaces:
            return mark(t("display.spaces", lang, count=len(spaces)))
        code = ord(char)
        escape = _NAMED.get(char) or (f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}")
        return mark(escape)

    return _HIDDEN.sub(shown, text)


class TerminalRenderer:
    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self._color = self.out.isatty()
        self._mid_line = False

    def _style(self, text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self._color else text

    def shown(self, text: str, lang: Language = "ko") -> str:
        """Untrusted text (tool arguments, results) made safe and honest for a terminal."""
        return visible(text, lang, mark=lambda escape: self._style(escape, "7"))

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
            self.line(self._style(f"⚙ {visible(event.tool_name)} {_preview(event.args)}", "36"))
        elif isinstance(event, ToolExecutionEnd):
            self.line(self._tool_end(event))
        elif isinstance(event, AgentError):
            self.line(self._style(f"✗ {event.message}", "31"))
        elif isinstance(event, AgentEnd):
            if self._mid_line:
                self.write("\n")
        elif getattr(event, "type", None) == "agent_event":
            nested = self._nested(getattr(event, "agent_path", []), getattr(event, "event", {}))
            if nested:
                self.line(nested)
        elif getattr(event, "type", None) == "validation_error":
            self.line(self._style(f"✗ {getattr(event, 'message', '')}", "33"))

    def _nested(self, path: list[str], inner: dict[str, Any]) -> str:
        """A sub-agent's (or asked agent's) work, indented one step per level under its caller;
        streamed text stays out (its answer comes back as the tool's result)."""
        kind = inner.get("type")
        label = self.shown(" › ".join(path))
        indent = "  " * max(1, len(path) - 1)
        if kind == "tool_execution_start":
            args = inner.get("args") if isinstance(inner.get("args"), dict) else {}
            text = f"↳ {label} ⚙ {self.shown(str(inner.get('tool_name')))} {_preview(args or {})}"
            return indent + self._style(text, "36")
        if kind == "tool_execution_end":
            return indent + f"↳ {label} " + self._tool_end(ToolExecutionEnd.model_validate(inner))
        if kind == "agent_start":
            return indent + self._style(f"↳ {label} …", "2")
        if kind == "agent_error":
            return indent + self._style(
                f"↳ {label} ✗ {self.shown(str(inner.get('message')))}", "31"
            )
        return ""

    def _tool_end(self, event: ToolExecutionEnd) -> str:
        decision = event.decision or {}
        reason = decision.get("reason")
        suffix = f" · {reason}" if reason and reason != "not_required" else ""
        if event.is_error:
            first = event.result_preview.splitlines()[0] if event.result_preview else ""
            shown = self.shown(first[:160])
            return self._style(f"✗ {self.shown(event.tool_name)}{suffix}: ", "31") + shown
        return self._style(f"✓ {self.shown(event.tool_name)}{suffix}", "32")


def _preview(args: dict[str, Any]) -> str:
    text = visible(json.dumps(args, ensure_ascii=False))  # spaces collapsed before the cut
    return text if len(text) <= _ARG_PREVIEW else text[: _ARG_PREVIEW - 1] + "…"
