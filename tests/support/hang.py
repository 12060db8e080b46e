"""The suite's one hang guard: how long a test waits for something before calling it a hang.

A wait in a test is for an event or a condition, never a budget of time: a machine loaded
several times over (CI beside other suites, load 20+ on 2 cores) takes minutes for what an
idle one does in a second. So every wait that only guards against a hang uses this one
generous figure (override with `JARVIS_TEST_HANG_GUARD_SEC`), and pytest-timeout (pyproject)
is the last line. A wait on a process also ends, at once, when that process dies (see
`processes.healthy`): a dead server is a failure with its log, not a hang.
"""

from __future__ import annotations

import os
from pathlib import Path

HANG_GUARD_SEC = float(os.environ.get("JARVIS_TEST_HANG_GUARD_SEC", "600"))


def log_tail(path: Path, lines: int = 40) -> str:
    """The last `lines` lines of a log file (empty if it does not exist), for a failure."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return ""
    return "\n".join(text.splitlines()[-lines:])
