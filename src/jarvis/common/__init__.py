"""Helpers every layer may use: logging, clock and ids, atomic files, the message catalog."""

from jarvis.common.atomic import atomic_write_text
from jarvis.common.clock import Clock, SystemClock, new_id, now_ms
from jarvis.common.i18n import Language, t

__all__ = ["Clock", "Language", "SystemClock", "atomic_write_text", "new_id", "now_ms", "t"]
