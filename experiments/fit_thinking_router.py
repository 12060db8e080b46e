"""Fit the thought router's weights on the dev half of the labelled set (issue 26).

Logistic regression (L2, gradient descent, numpy) over `features()` of the dev prompts that reach
the model (the hard rules decide the rest), then the threshold that gives the target think-rate
over all dev prompts. Writes `src/jarvis/agent_layer/thought/router_weights.json` and prints dev
and test measures. The test half is never used for fitting.

    .venv/bin/python experiments/fit_thinking_router.py [--target-rate 0.45] [--l2 0.05]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from thinking_router_data import evaluate, load

from jarvis.agent_layer.thought import FEATURE_NAMES, RouterWeights, features, route
from jarvis.agent_layer.thought.router import WEIGHTS_FILE, score

OUT = Path(__file__).resolve().parents[1] / "src/jarvis/agent_layer/thought" / WEIGHTS_FILE


def fit(x: np.ndarray, y: np.ndarray, l2: float, steps: int = 20000) -> tuple[float, np.ndarray]:
    w = np.zeros(x.shape[1])
    b = 0.0
    lr = 0.1
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        grad_w = x.T @ (p - y) / len(y) + l2 * w
        grad_b = float(np.mean(p - y))
        w -= lr * grad_w
        b -= lr * grad_b
    return b, w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--target-rate", type=float, default=0.45)
    parser.add_argument("--l2", type=float, default=0.02)
    parser.add_argument("--dry-run", action="store_true", help="print, do not write the file")
    args = parser.parse_args()
    dev = load("dev")
    # Only prompts no hard rule decides teach the model anything.
    neutral = RouterWeights(bias=0.0, weights={})
    modelled = [row for row in dev if route(row.prompt, neutral).reason.startswith("model:")]
    x = np.array([[features(r.text)[n] for n in FEATURE_NAMES] for r in modelled])
    y = np.array([1.0 if r.think else 0.0 for r in modelled])
    bias, w = fit(x, y, args.l2)
    weights = RouterWeights(
        bias=round(bias, 4),
        weights={n: round(float(v), 4) for n, v in zip(FEATURE_NAMES, w, strict=True)},
        target_think_rate=args.target_rate,
        fitted_on=f"experiments/data/thinking_router.yaml dev ({len(dev)} prompts)",
    )
    # The threshold: the dev think-rate (hard rules included) closest to the target.
    scores = sorted({score(features(r.text), weights)[0] for r in modelled})
    best = min(
        (abs(evaluate(dev, _at(weights, t)).think_rate - args.target_rate), -t) for t in scores
    )
    weights = _at(weights, round(-best[1] - 1e-6, 6))
    for half in ("dev", "test"):
        rep = evaluate(load(half), weights)
        print(
            f"{half}: n={rep.n} accuracy={rep.accuracy:.3f} auc={rep.auc:.3f} "
            f"recall={rep.recall:.3f} precision={rep.precision:.3f} think_rate={rep.think_rate:.3f}"
        )
    print(json.dumps(weights.to_dict(), ensure_ascii=False, indent=2))
    if not args.dry_run:
        OUT.write_text(json.dumps(weights.to_dict(), ensure_ascii=False, indent=2) + "\n")
        print(f"wrote {OUT}")


def _at(weights: RouterWeights, threshold: float) -> RouterWeights:
    return RouterWeights(
        bias=weights.bias,
        weights=weights.weights,
        threshold=threshold,
        target_think_rate=weights.target_think_rate,
        fitted_on=weights.fitted_on,
    )


if __name__ == "__main__":
    main()
