"""`jarvis serve`'s own process, once started, collects once, freezes what start-up built and
raises the collector's first threshold (common/server_gc.py). Run in a process of its own:
freezing is for the whole process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from jarvis.common.server_gc import THRESHOLDS
from tests.support.hang import HANG_GUARD_SEC

# The factory `jarvis serve` gives uvicorn, started and stopped through its lifespan.
SERVE = """
import asyncio, gc, json
from jarvis.ui.web.factory import create_from_env

async def main():
    app = create_from_env()
    before = [gc.get_freeze_count(), list(gc.get_threshold())]
    async with app.router.lifespan_context(app):
        print(json.dumps([before, [gc.get_freeze_count(), list(gc.get_threshold())]]))

asyncio.run(main())
"""


def test_the_server_process_freezes_start_up_and_collects_less_often(tmp_path: Path) -> None:
    settings = {"HOME": tmp_path, "WORKSPACE": tmp_path, "SERVE_DEMO": 1, "SCHEDULER__ENABLED": 0}
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    env |= {f"JARVIS_{key}": str(value) for key, value in settings.items()}
    done = subprocess.run(
        [sys.executable, "-c", SERVE],
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SEC,
    )
    assert done.returncode == 0, done.stderr
    before, started = json.loads(done.stdout.strip().splitlines()[-1])
    assert before == [0, [700, 10, 10]]
    assert started[0] > 10_000  # start-up's objects, out of every later collection
    assert started[1] == list(THRESHOLDS)
