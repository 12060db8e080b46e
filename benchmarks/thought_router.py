"""The thought router's cost per prompt (issue 26: p95 ≤ 2 ms).

Routes every prompt of the labelled set (experiments/data/thinking_router.yaml, both halves) plus
long inputs (about 10,000 characters, the validation limit) `--rounds` times and prints
p50 / p95 / max wall time and the mean CPU time per route in microseconds (on a shared machine
the CPU time is the steadier figure; give the load average with either).

    .venv/bin/python benchmarks/thought_router.py [--rounds 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "experiments"))

from thinking_router_data import load  # noqa: E402

from jarvis.agent_layer.thought import RouteInput, load_weights, route  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    weights = load_weights()
    labelled = [row.text for half in ("dev", "test") for row in load(half)]
    long = ["왜 이 테스트가 실패하는지 " * 700, "why does this fail and how do I fix it " * 256]
    for label, texts in (("labelled prompts", labelled), ("10,000-char prompts", long)):
        samples: list[float] = []
        cpu_start = time.process_time()
        for _ in range(args.rounds):
            for text in texts:
                start = time.perf_counter()
                route(RouteInput(text), weights)
                samples.append((time.perf_counter() - start) * 1e6)
        cpu_us = (time.process_time() - cpu_start) / len(samples) * 1e6
        samples.sort()
        p95 = samples[int(len(samples) * 0.95)]
        print(
            f"{label}: {len(samples)} routes, p50 {statistics.median(samples):.1f} µs, "
            f"p95 {p95:.1f} µs, max {samples[-1]:.1f} µs, CPU {cpu_us:.1f} µs/route "
            f"(target p95 <= 2000 µs)"
        )


if __name__ == "__main__":
    main()
