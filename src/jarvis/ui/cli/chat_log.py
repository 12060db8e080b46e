"""Log records of `jarvis chat` go to a file, not onto the prompt line: the terminal gets one
short notice (the first time something is logged at WARNING or above) naming the file."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from jarvis.common.i18n import Language, t

LOG_NAME = "chat.log"


class NoticeHandler(logging.Handler):
    """Says once that there were warnings; the details are in the file."""

    def __init__(self, path: Path, lang: Language) -> None:
        super().__init__(logging.WARNING)
        self.path = path
        self.lang = lang
        self.notify: Callable[[str], None] | None = None
        self._noticed = False
        self._pending = False

    def emit(self, record: logging.LogRecord) -> None:
        if self._noticed:
            return
        if self.notify is None:
            self._pending = True  # before the REPL prints anything: said when it attaches
            return
        self._noticed = True
        self.notify(t("terminal.log_notice", self.lang, path=self.path))

    def attach(self, notify: Callable[[str], None]) -> None:
        self.notify = notify
        if self._pending:
            self._pending = False
            self.emit(logging.makeLogRecord({"levelno": logging.WARNING}))


def route_logs(home: Path, lang: Language) -> NoticeHandler:
    """Every record to `<home>/logs/chat.log`; a notice handler for the terminal."""
    path = home / "logs" / LOG_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    to_file = logging.FileHandler(path, encoding="utf-8")
    to_file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    notice = NoticeHandler(path, lang)
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(to_file)
    root.addHandler(notice)
    root.setLevel(logging.INFO)
    return notice
