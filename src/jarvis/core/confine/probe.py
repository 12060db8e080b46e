"""Does bubblewrap work here? Asked once per process (`bwrap … true`), then remembered.

API: `probe(bwrap=None) -> Probe` (`.works`, `.bwrap` path, `.reason` when it does not: not
Linux, no bubblewrap on PATH, or it failed, e.g. user namespaces disabled — bwrap's own line).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache

from jarvis.core.confine.plan import Confinement, bwrap_argv

_PROBE_TIMEOUT_SEC = 10.0


@dataclass(frozen=True)
class Probe:
    works: bool
    bwrap: str = ""
    reason: str = ""


@cache
def probe(bwrap: str | None = None) -> Probe:
    if not sys.platform.startswith("linux"):
        return Probe(False, reason=f"no OS sandbox on {sys.platform} (Linux bubblewrap only)")
    path = bwrap or shutil.which("bwrap")
    if path is None:
        return Probe(False, reason="bubblewrap (bwrap) is not installed")
    argv = bwrap_argv(path, Confinement(workspace="/tmp"), ["/bin/true"])
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=_PROBE_TIMEOUT_SEC, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Probe(False, path, f"{path} could not run: {exc}")
    if done.returncode != 0:
        line = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        return Probe(False, path, f"{path} does not work here: {line}")
    return Probe(True, path)
