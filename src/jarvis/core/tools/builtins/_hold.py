"""Hold points for the Stop tests (tests/sandbox/test_stop.py): where a Stop lands, placed by
the test instead of by timing.

With `JARVIS_TEST_SANDBOX_HOLD=<point>` set, a `bash` call that reaches `<point>` writes the
point's name to `<workspace>/sandbox-held` and waits there until the turn is stopped (the Stop
cancels it, or sets the call's abort event). Unset (always, outside those tests) it does nothing.

- `spawn`: before the command's process exists (nothing must start).
- `setup`: bubblewrap has started and its sandbox process is held inside bubblewrap's set-up,
  before the command (`--block-fd`): the namespaces exist, the command does not. The hold is
  released only after the kill, so a sandbox process the kill missed would go on and run it.

`setup_block()` gives that fd pair (or None); `release(fd)` lets a held set-up go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

ENV = "JARVIS_TEST_SANDBOX_HOLD"
MARKER = "sandbox-held"


def held(point: str) -> bool:
    return os.environ.get(ENV) == point


async def hold(point: str, workspace: Path, abort: asyncio.Event) -> None:
    if not held(point):
        return
    (workspace / MARKER).write_text(point, encoding="utf-8")
    await abort.wait()


def setup_block() -> tuple[int, int] | None:
    """(read end for bwrap's `--block-fd`, write end we keep) when the `setup` hold is on."""
    return os.pipe() if held("setup") else None


def release(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)
