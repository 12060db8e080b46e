"""Hold points for the Stop tests (tests/sandbox/test_stop.py): where a Stop lands, placed by
the test instead of by timing.

With `JARVIS_TEST_SANDBOX_HOLD=<point>` set, a `bash` call that reaches `<point>` writes the
point's name to `<workspace>/sandbox-held` and waits there until the turn is stopped (the Stop
cancels it, or sets the call's abort event). Unset (always, outside those tests) it does nothing.

- `spawn`: before the command's process exists (nothing must start).
- `setup`: bubblewrap has started and its sandbox process is held inside bubblewrap's set-up,
  before the command (`--block-fd` on the FIFO `<workspace>/sandbox-release`, which the test
  created and holds open for writing): the namespaces exist, the command does not. The test
  releases it (closes its end) only after the kill, or after it killed the server, so a sandbox
  process that was missed would go on and run the command.

`setup_block(workspace)` opens that FIFO for bwrap (or gives None).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

ENV = "JARVIS_TEST_SANDBOX_HOLD"
MARKER = "sandbox-held"
RELEASE = "sandbox-release"


def held(point: str) -> bool:
    return os.environ.get(ENV) == point


async def hold(point: str, workspace: Path, abort: asyncio.Event) -> None:
    if not held(point):
        return
    (workspace / MARKER).write_text(point, encoding="utf-8")
    await abort.wait()


def setup_block(workspace: Path) -> int | None:
    """The read end of the test's FIFO, for bwrap's `--block-fd`, under the `setup` hold."""
    if not held("setup"):
        return None
    fd = os.open(workspace / RELEASE, os.O_RDONLY | os.O_NONBLOCK)  # the test is the writer
    os.set_blocking(fd, True)
    return fd
