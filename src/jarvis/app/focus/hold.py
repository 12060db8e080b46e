"""Hold points for the crash tests (tests/faults/test_focus_crash.py,
tests/faults/test_sources_processes.py: `source:recorded`, `source:decided`).

With `JARVIS_TEST_FOCUS_HOLD=<point>` set, the process that reaches `<point>` writes the point's
name to `<home>/<marker>` (`focus-held` unless told) and stops there for good (the event loop
included), so the test can `kill -9` it at exactly that point. Unset (always, outside those
tests) it does nothing.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

ENV = "JARVIS_TEST_FOCUS_HOLD"


def hold_point(home: Path, point: str, marker: str = "focus-held") -> None:
    if os.environ.get(ENV) != point:
        return
    (home / marker).write_text(point, encoding="utf-8")
    threading.Event().wait()  # until the test kills the process
