"""CPU an idle `jarvis serve --demo` uses: what a personal assistant left running costs.

A real server process in a throwaway home (files backend, scheduler and watchers on, nothing
connected); after it answers health and settles, its user + system CPU over `--seconds` is
read from /proc. Prints the share of one core.

    .venv/bin/python benchmarks/idle_cpu.py [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import tempfile
import time
from pathlib import Path

from ws_load import JARVIS, cpu_sec, free_port, wait_healthy

SETTLE_SEC = 5.0  # start-up work (the first ticks, background connects) is not idle


async def measure(seconds: float, extra_env: list[str], settle: float = SETTLE_SEC) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
        env.update(JARVIS_HOME=home, JARVIS_WORKSPACE=home)
        env.update(item.split("=", 1) for item in extra_env)  # e.g. JARVIS_SCHEDULER__ENABLED=false
        with (Path(home) / "serve.log").open("w") as log:
            server = subprocess.Popen(  # noqa: ASYNC220 (started once, before measuring)
                [JARVIS, "serve", "--demo", "--port", str(port)], env=env, stdout=log, stderr=log
            )
        try:
            await wait_healthy(port)
            await asyncio.sleep(settle)
            before = cpu_sec(server.pid)
            start = time.perf_counter()
            await asyncio.sleep(seconds)
            elapsed = time.perf_counter() - start
            used = cpu_sec(server.pid) - before
        finally:
            server.terminate()
            server.wait(30)
    share = used / elapsed * 100
    print(f"idle server: {share:.2f} % of one core ({used:.2f} s CPU in {elapsed:.0f} s)")
    print("load average:", " ".join(f"{v:.2f}" for v in os.getloadavg()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--env", action="append", default=[], help="KEY=VALUE for the server (repeatable)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=SETTLE_SEC,
        help="seconds after health before measuring (65: after the engine's first minute, "
        "when DBOS's schedule poller slows from once a second to its set interval)",
    )
    args = parser.parse_args()
    asyncio.run(measure(args.seconds, args.env, args.settle))


if __name__ == "__main__":
    main()
