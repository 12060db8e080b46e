"""One logger namespace for the whole runtime."""

from __future__ import annotations

import logging


def get_logger(name: str) -> logging.Logger:
    return logging.getLogger(name if name.startswith("jarvis") else f"jarvis.{name}")
