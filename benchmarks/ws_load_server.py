"""`jarvis serve` as `ws_load.py` runs it, noting when each approval answer reaches the server.

The in-memory pending store's `answer` (called as soon as the connection has read and parsed
the answer frame) is wrapped to note `time.time_ns()` by request id; the notes are written as
JSON to the file named by `WS_LOAD_ANSWERS` on SIGUSR2. With `WS_LOAD_CPROFILE` set, cProfile
runs from SIGUSR1 (the load starts) to SIGUSR2 and its stats go to that file. Everything else is
the real `jarvis` command line.
"""

from __future__ import annotations

import cProfile
import json
import os
import signal
import sys
import time
from typing import Any

from jarvis.core.approvals.pending import MemoryPendingStore
from jarvis.ui.cli.main import app

RECEIVED: dict[str, int] = {}
PROFILE = cProfile.Profile()
_answer = MemoryPendingStore.answer


async def _noted(self: MemoryPendingStore, item_id: str, *args: Any) -> Any:
    RECEIVED.setdefault(item_id, time.time_ns())
    return await _answer(self, item_id, *args)


def _profile(*_: object) -> None:
    PROFILE.enable()  # the event loop's thread: signal handlers run there


def _write(*_: object) -> None:
    if stats := os.environ.get("WS_LOAD_CPROFILE"):
        PROFILE.disable()
        PROFILE.dump_stats(stats)
    path = os.environ["WS_LOAD_ANSWERS"]
    with open(f"{path}.part", "w", encoding="utf-8") as out:
        json.dump(RECEIVED, out)
    os.replace(f"{path}.part", path)  # whole or absent


if __name__ == "__main__":
    MemoryPendingStore.answer = _noted  # type: ignore[method-assign]
    signal.signal(signal.SIGUSR2, _write)
    signal.signal(signal.SIGUSR1, _profile)
    sys.argv[0] = "jarvis"
    app()
