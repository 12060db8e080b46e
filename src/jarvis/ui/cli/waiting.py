"""A spinner with the elapsed time and "Ctrl-C stops" while the model has not answered yet.

With a local model the first token can take 10–30 s; without it the terminal looks hung. Only
on a terminal: piped output never gets it (the renderer makes none then). The line goes away
when the first token, a tool call, a question or the end of the turn arrives.

While prompt_toolkit reads lines (`ui/cli/prompt.py`) the input line itself shows it (printing a
live line above the prompt would leave a copy per redraw); otherwise a transient `rich` line.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console, RenderableType
from rich.live import Live
from rich.text import Text

from jarvis.common.i18n import Language, t

_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

# Shows a status in the input line (a function giving its text), or clears it (None).
StatusLine = Callable[[Callable[[], str] | None], None]


def waiting_text(seconds: float, lang: Language) -> str:
    return t("terminal.waiting", lang, seconds=f"{seconds:.0f}")


def spinner_frame(seconds: float) -> str:
    return _FRAMES[int(seconds * 10) % len(_FRAMES)]


class WaitingLine:
    """Start when the model is asked, stop at its first sign of life (idempotent both ways)."""

    def __init__(self, console: Console, lang: Language, status: StatusLine | None = None):
        self.console = console
        self.lang = lang
        self.status = status
        self._live: Live | None = None
        self._since: float | None = None

    @property
    def shown(self) -> bool:
        return self._since is not None

    def text(self) -> str:
        elapsed = time.monotonic() - (self._since or time.monotonic())
        return f"{spinner_frame(elapsed)} {waiting_text(elapsed, self.lang)} "

    def _renderable(self) -> RenderableType:
        return Text(self.text(), style="cyan")

    def start(self) -> None:
        if self._since is not None:
            return
        self._since = time.monotonic()
        if self.status is not None:
            self.status(self.text)
            return
        self._live = Live(
            console=self.console,
            get_renderable=self._renderable,
            refresh_per_second=8,
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._live.start(refresh=True)

    def stop(self) -> None:
        if self._since is None:
            return
        self._since = None
        if self.status is not None:
            self.status(None)
        if self._live is not None:
            live, self._live = self._live, None
            live.stop()
