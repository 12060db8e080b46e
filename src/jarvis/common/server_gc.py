"""The garbage collector of a long-running server process (`jarvis serve`).

What start-up builds (modules, the assembly, compiled patterns and schemas: about 260,000
objects the collector tracks) lives as long as the process, and every full collection walked
all of it: about 0.2 s of CPU each. Under `benchmarks/ws_load.py` (2,000 turns) the collector
took a quarter of the server's CPU — five full passes and ~650 young-generation passes, which a
turn triggers by allocating and freeing thousands of objects that reference counting frees
anyway. Once started, the server therefore

- collects once and freezes what is left (`gc.freeze`: never examined again), and
- raises the first generation's threshold from 700 to 50,000 tracked objects, so the collector
  runs when objects really accumulate (cyclic garbage waits longer, bounded by that count).

Only the server's own process does this (`ui/web/factory.py`); tests and the CLI keep Python's
defaults.
"""

from __future__ import annotations

import gc

THRESHOLDS = (50_000, 20, 10)


def settle_after_start() -> None:
    """Call once the server has started: start-up's objects out of every later collection."""
    gc.collect()  # garbage left by start-up is freed, not frozen for ever
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
