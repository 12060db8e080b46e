"""MCP elicitation in the terminal: the form's fields are listed and answered in one line
(`name=Ada check=yes`, or `d` to decline); a window that answers first closes it here too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

from jarvis.common.i18n import t
from jarvis.core.mcp.elicitation import (
    Answer,
    ElicitationRequest,
    ElicitationResolved,
    form_content,
)

if TYPE_CHECKING:
    from jarvis.ui.cli.chat import ChatRepl


class TerminalElicitation:
    def __init__(self, repl: ChatRepl) -> None:
        self.repl = repl
        self._open: str | None = None

    def __call__(self, event: BaseModel) -> None:
        if isinstance(event, ElicitationRequest):
            self._ask(event)
        elif isinstance(event, ElicitationResolved) and event.id == self._open:
            self._open = None
            self.repl.answer_sink = None

    def _ask(self, request: ElicitationRequest) -> None:
        render, lang = self.repl.render, self.repl.lang
        shown = render.shown
        render.line(
            t(
                "mcp.terminal.asks",
                lang,
                server=shown(request.server),
                message=shown(request.message),
            )
        )
        for key, spec in ((request.schema_ or {}).get("properties") or {}).items():
            default = f" = {spec['default']}" if "default" in spec else ""
            render.line(f"    {shown(key)}: {shown(str(spec.get('title', '')))}{shown(default)}")
        if request.url:
            render.line(f"    {shown(request.url)}")
        render.write(t("mcp.terminal.answer", lang))
        self._open = request.id
        self.repl.set_answer_sink(lambda line: self._answer(request, line), lambda _line: False)

    def _answer(self, request: ElicitationRequest, line: str) -> bool:
        self.repl.answer_sink = None
        self._open = None
        desk = self.repl.builder.app.mcp.desk
        if desk is None:
            return True
        words = line.strip()
        if words in ("d", "D"):
            answer = Answer("decline")
        else:
            answer = Answer("accept", form_content(request.schema_, words))
        desk.answer(request.id, request.session_id, answer)
        return True
