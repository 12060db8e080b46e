"""Turns agent events into terminal output.

On a terminal, answers are Markdown rendered with `rich` as they stream (a live view that ends
with the text or at the next tool call) and tool calls are compact blocks: the arguments in
readable form, then the outcome in words and the first lines of the result. Piped output stays
plain text, streamed as it comes.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from pydantic import BaseModel
from rich.console import Console
from rich.live import Live
from rich.markdown import Markdown

from jarvis.agent_layer.events import (
    AgentEnd,
    AgentError,
    AgentStart,
    MessageUpdate,
    ToolExecutionEnd,
    ToolExecutionStart,
    ToolProgress,
)
from jarvis.common.i18n import Language, t
from jarvis.ui.cli.reasons import decision_reason
from jarvis.ui.cli.waiting import StatusLine, WaitingLine

_ARG_PREVIEW = 120
_RESULT_LINES = 6
_REDRAW_SEC = 0.05
# Controls that would rewrite the screen (ESC, CR, …); newlines and tabs are text.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
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
    def __init__(self, out: TextIO | None = None, lang: Language = "ko") -> None:
        self.out = out or sys.stdout
        self.lang = lang
        self._color = self.out.isatty()
        self._mid_line = False
        self._console = Console(file=self.out, highlight=False) if self._color else None
        # While the model has not answered: a spinner, the time and "Ctrl-C stops" (terminal only).
        self._waiting = WaitingLine(self._console, lang) if self._console is not None else None
        self._text: list[str] = []  # the answer being streamed (terminal only)
        self._live: Live | None = None
        self._drawn_at = 0.0
        # Set while prompt_toolkit reads the lines (ui/cli/prompt.py): questions become the
        # input line's prompt instead of text written where the cursor waits.
        self.prompt: Callable[[str], None] | None = None

    def above_prompt(
        self, out: TextIO, prompt: Callable[[str], None], status: StatusLine | None = None
    ) -> None:
        """Write to `out` (it shows above the input line), ask through `prompt`, and show the
        waiting line through `status` (in the input line)."""
        self.out = out
        if self._console is not None:
            self._console = Console(file=out, highlight=False)
            self._waiting = WaitingLine(self._console, self.lang, status)
        self.prompt = prompt

    def ask(self, question: str) -> None:
        """A question the next typed line answers (`› `, an approval's choices)."""
        if self.prompt is None:
            self.write(question)
            return
        self._end_answer()
        if self._mid_line:
            self._emit("\n")
        self._stop_waiting()
        self.prompt(question)

    def answered(self) -> None:
        """The question went away unanswered here (another window, a timeout): the input line
        stops asking it."""
        if self.prompt is not None:
            self.prompt("")

    def _style(self, text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self._color else text

    def shown(self, text: str, lang: Language = "ko") -> str:
        """Untrusted text (tool arguments, results) made safe and honest for a terminal."""
        return visible(text, lang, mark=lambda escape: self._style(escape, "7"))

    def write(self, text: str) -> None:
        self._end_answer()
        self._emit(text)

    def _emit(self, text: str) -> None:
        self._stop_waiting()
        self.out.write(text)
        self.out.flush()
        self._mid_line = not text.endswith("\n")

    def line(self, text: str) -> None:
        if self._mid_line:
            self.write("\n")
        self.write(text + "\n")

    def _stop_waiting(self) -> None:
        if self._waiting is not None:
            self._waiting.stop()

    def __call__(self, event: BaseModel) -> None:
        if isinstance(event, AgentStart):
            if self._waiting is not None and self._live is None:
                self._waiting.start()
            return
        if isinstance(event, MessageUpdate):
            if event.text_delta:
                self._answer(event.text_delta)
        elif isinstance(event, ToolExecutionStart):
            self.line(self._style(f"⚙ {self.shown(event.tool_name)}", "36;1"))
            for arg_line in _arg_lines(event.args):
                self.line(self._style(f"  {arg_line}", "36"))
        elif isinstance(event, ToolExecutionEnd):
            self._tool_end(event)
            if self._waiting is not None:  # the model reads the result next
                self._waiting.start()
        elif isinstance(event, ToolProgress):
            self.line(self._style(progress_line(event), "2"))
        elif isinstance(event, AgentError):
            self.line(self._style(f"✗ {event.message}", "31"))
        elif isinstance(event, AgentEnd):
            self._stop_waiting()
            self._end_answer()
            if self._mid_line:
                self._emit("\n")
        elif getattr(event, "type", None) == "agent_event":
            nested = self._nested(getattr(event, "agent_path", []), getattr(event, "event", {}))
            if nested:
                self.line(nested)
        elif getattr(event, "type", None) == "proactive_message":
            kind, said = getattr(event, "kind", ""), str(getattr(event, "text", ""))
            if kind == "filler" and self._color:  # a status line: a tty's
                self.line(self._style(f"… {self.shown(said)}", "2"))
            elif kind == "answer":  # one line by code (the learner muting a topic)
                self.line(self._style(f"· {self.shown(said)}", "36"))
        elif getattr(event, "type", None) == "validation_error":
            self.line(self._style(f"✗ {getattr(event, 'message', '')}", "33"))
        elif getattr(event, "type", None) == "agenda_question":
            self.line(self._style(f"? {self.shown(getattr(event, 'text', ''))}", "33"))

    def _answer(self, delta: str) -> None:
        """Stream a piece of the answer: plain when piped, live Markdown on a terminal."""
        safe = _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", delta)
        self._stop_waiting()
        if self._console is None:
            self._emit(safe)
            return
        if self._live is None:
            if self._mid_line:
                self._emit("\n")
            self._live = Live(
                console=self._console,
                auto_refresh=False,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._live.start()
            self._drawn_at = 0.0
        self._text.append(safe)
        now = time.monotonic()
        if now - self._drawn_at >= _REDRAW_SEC:  # a long answer is not re-parsed per token
            self._drawn_at = now
            self._live.update(Markdown("".join(self._text)), refresh=True)

    def _end_answer(self) -> None:
        if self._live is not None:
            self._live.update(Markdown("".join(self._text)))
            self._live.stop()
            self._live = None
            self._text.clear()
            self._mid_line = False

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
            return (
                indent + f"↳ {label} " + self._tool_end_line(ToolExecutionEnd.model_validate(inner))
            )
        if kind == "agent_start":
            return indent + self._style(f"↳ {label} …", "2")
        if kind == "agent_error":
            return indent + self._style(
                f"↳ {label} ✗ {self.shown(str(inner.get('message')))}", "31"
            )
        return ""

    def _tool_end(self, event: ToolExecutionEnd) -> None:
        self.line(self._tool_end_line(event))
        decision = event.decision or {}
        refused = decision.get("outcome") in ("deny", "block", "timeout")
        if event.is_error and refused:
            return  # the result is written for the model ("approval_denied: …")
        for result_line in self._result_lines(event.result_preview):
            self.line(self._style(f"  {result_line}", "2"))

    def _tool_end_line(self, event: ToolExecutionEnd) -> str:
        name = self.shown(event.tool_name)
        decision = event.decision or {}
        reason = decision_reason(decision, self.lang)
        suffix = f" · {reason}" if reason else ""
        mark, colour = ("✗", "31") if event.is_error else ("✓", "32")
        return self._style(f"{mark} {name}{suffix}", colour)

    def _result_lines(self, preview: str) -> list[str]:
        lines = preview.strip("\n").splitlines()
        shown = [self.shown(line[:200], self.lang) for line in lines[:_RESULT_LINES]]
        if len(lines) > _RESULT_LINES:
            shown.append(t("terminal.more_lines", self.lang, count=len(lines) - _RESULT_LINES))
        return shown


def _arg_lines(args: dict[str, Any]) -> list[str]:
    """`key: value` per argument, each cut to one line (the approval prompt shows them whole)."""
    lines = []
    for key, value in args.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        first, *rest = text.splitlines() or [""]
        more = f" (+{len(rest)} lines)" if rest else ""
        shown = visible(first)
        if len(shown) > _ARG_PREVIEW:
            shown = shown[: _ARG_PREVIEW - 1] + "…"
        lines.append(f"{visible(key)}: {shown}{more}")
    return lines


def progress_line(event: ToolProgress) -> str:
    total = f"/{event.total:g}" if event.total is not None else ""
    message = f" {visible(event.message)}" if event.message else ""
    return f"… {visible(event.tool_name)} {event.progress:g}{total}{message}"


def _preview(args: dict[str, Any]) -> str:
    """Arguments on one line (a sub-agent's tool call, nested under its caller)."""
    text = visible(json.dumps(args, ensure_ascii=False))  # spaces collapsed before the cut
    return text if len(text) <= _ARG_PREVIEW else text[: _ARG_PREVIEW - 1] + "…"
