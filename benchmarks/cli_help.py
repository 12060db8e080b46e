"""`jarvis --help` wall time: the median of N runs of the real console script (a fresh process
each time, as a person types it). Target: ≤ 0.3 s.

    .venv/bin/python benchmarks/cli_help.py [--runs 11] [--args "chat --help"]
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")


def measure(args: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([JARVIS, *args], check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--args", default="--help", help="what to run (default: --help)")
    options = parser.parse_args()
    args = shlex.split(options.args)
    times = measure(args, options.runs)
    median = statistics.median(times)
    print(
        f"jarvis {options.args}: median {median:.3f} s over {options.runs} runs "
        f"(min {min(times):.3f}, max {max(times):.3f}); target ≤ 0.300 s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
