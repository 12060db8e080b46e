"""What the chat's helpers (the approval channel, MCP forms) see of the chat: its renderer, its
agent's builder, its language and where the next typed line goes. A protocol below `ChatRepl`,
so the helpers and the chat do not import each other."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from jarvis.app.session_builder import SessionBuilder
from jarvis.common.i18n import Language
from jarvis.ui.cli.render import TerminalRenderer


class ReplView(Protocol):
    builder: SessionBuilder
    render: TerminalRenderer
    # Set while a question waits for the typed answer.
    answer_sink: Callable[[str], bool] | None

    @property
    def lang(self) -> Language: ...

    def set_answer_sink(
        self, sink: Callable[[str], bool], typed_ahead: Callable[[str], bool]
    ) -> None: ...
