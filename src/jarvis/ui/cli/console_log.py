"""The server console's log lines: Jarvis's own at INFO, HTTP clients' only when they warn.

httpx logs every request at INFO ("HTTP Request: POST …/chat/completions 200 OK"): one line
per model call, memory embedding and health probe, which buried the lines that matter.
"""

from __future__ import annotations

import logging

FORMAT = "%(levelname)s %(name)s: %(message)s"
QUIET_BELOW_WARNING = ("httpx", "httpcore")


def quiet_http_clients(record: logging.LogRecord) -> bool:
    """False for an HTTP client's record below WARNING (its per-request lines)."""
    if record.levelno >= logging.WARNING:
        return True
    return not any(
        record.name == name or record.name.startswith(f"{name}.") for name in QUIET_BELOW_WARNING
    )


def console_logging(level: int = logging.INFO) -> None:
    """Log to stderr at `level`, without the HTTP clients' request lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(quiet_http_clients)
    logging.basicConfig(level=level, handlers=[handler])
