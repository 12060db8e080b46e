"""MCP elicitation in the terminal: the form's fields are listed and answered in one line
(`name=Ada check=yes`, or `d` to decline); a line that does not fit the form gets a one-line
reason and the question stays open; a window that answers first closes it here too."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from jarvis.common.i18n import t
from jarvis.core.mcp.elicitation import Answer, ElicitationRequest, ElicitationResolved
from jarvis.core.mcp.form_answer import FormError, choices, form_content
from jarvis.ui.cli.repl_view import ReplView


class TerminalElicitation:
    def __init__(self, repl: ReplView) -> None:
        self.repl = repl
        self._open: str | None = None

    def __call__(self, event: BaseModel) -> None:
        if isinstance(event, ElicitationRequest):
            self._ask(event)
        elif isinstance(event, ElicitationResolved) and event.id == self._open:
            self._open = None
            self.repl.answer_sink = None
            self.repl.render.answered()

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
        schema = request.schema_ or {}
        required = set(schema.get("required") or [])
        for key, spec in (schema.get("properties") or {}).items():
            render.line("    " + shown(self._field(key, spec, key in required)))
        if request.url:
            render.line(f"    {shown(request.url)}")
        render.ask(t("mcp.terminal.answer", lang))
        self._open = request.id
        self.repl.set_answer_sink(lambda line: self._answer(request, line), lambda _line: False)

    def _field(self, key: str, spec: dict[str, Any], required: bool) -> str:
        """`name (required): String`, with the choices or the default when there are any."""
        mark = f" ({t('mcp.terminal.required', self.repl.lang)})" if required else ""
        allowed = choices(spec)
        extra = f" [{'|'.join(allowed)}]" if allowed else ""
        if "default" in spec:
            extra += f" = {spec['default']}"
        return f"{key}{mark}: {spec.get('title', '')}{extra}"

    def _answer(self, request: ElicitationRequest, line: str) -> bool:
        words = line.strip()
        if words in ("d", "D"):
            answer = Answer("decline")
        else:
            try:
                answer = Answer("accept", form_content(request.schema_, words))
            except FormError as exc:
                problem = t(f"mcp.form.{exc.problem}", self.repl.lang, **exc.fields)
                self.repl.render.ask(
                    t("mcp.terminal.again", self.repl.lang, problem=self.repl.render.shown(problem))
                )
                return True  # the line is used up; the question stays open
        self.repl.answer_sink = None
        self._open = None
        desk = self.repl.builder.app.mcp.desk
        if desk is not None:
            desk.answer(request.id, request.session_id, answer)
        return True
