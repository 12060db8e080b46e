"""`jarvis serve` start-up: from exec until `GET /api/health` answers, the median of N fresh
processes, as CPU time (user + system of the server process) and wall time. CPU time is the
figure to compare on a shared machine; wall time depends on the load (printed beside it).

    .venv/bin/python benchmarks/server_start.py [--runs 5] [--args "--demo"]

Each run gets a fresh, empty home (JARVIS_HOME) and the SQLite backend unless `--args` or the
environment say otherwise; the parent's own `JARVIS_*` variables are not passed on.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")
TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU of the process so far (its threads included), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def one_start(args: list[str]) -> tuple[float, float]:
    port = free_port()
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
        env.update(JARVIS_HOME=home, JARVIS_WORKSPACE=home)
        started = time.perf_counter()
        process = subprocess.Popen(
            [JARVIS, "serve", "--port", str(port), *args],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            with httpx.Client() as http:
                while True:
                    if process.poll() is not None:
                        raise SystemExit(f"jarvis serve exited with {process.returncode}")
                    try:
                        if http.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    time.sleep(0.02)
            wall = time.perf_counter() - started
            return cpu_seconds(process.pid), wall
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--args", default="--demo", help="arguments after `serve --port N`")
    options = parser.parse_args()
    args = shlex.split(options.args)
    cpus, walls = [], []
    for _ in range(options.runs):
        cpu, wall = one_start(args)
        cpus.append(cpu)
        walls.append(wall)
    load = os.getloadavg()[0]
    print(
        f"jarvis serve {options.args}: start → health over {options.runs} runs: "
        f"CPU median {statistics.median(cpus):.2f} s (min {min(cpus):.2f}, max {max(cpus):.2f}); "
        f"wall median {statistics.median(walls):.2f} s (min {min(walls):.2f}, "
        f"max {max(walls):.2f}); load {load:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
