"""The thought router: should this prompt buy thinking? A pure function of cheap features.

Hard rules first (seed 004 + issue 26): never on an answer to a pending approval, a slash
command, a bare yes/no or an acknowledgement; always when the person asks to think carefully.
Otherwise a logistic model over `features()` with weights from a versioned data file
(`router_weights.json`, fitted offline by `experiments/fit_thinking_router.py` on the team's
labelled set), thresholded at the score that gives the target think-rate on the dev half.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from jarvis.agent_layer.thought.features import (
    FEATURE_NAMES,
    Prepared,
    RouteInput,
    hard_rule,
    prepared_features,
)

WEIGHTS_FILE = "router_weights.json"
WEIGHTS_VERSION = 1
_SHAPE = frozenset({"length", "sentences"})


@dataclass(frozen=True)
class RouterWeights:
    bias: float
    weights: dict[str, float]
    threshold: float = 0.5
    version: int = WEIGHTS_VERSION
    target_think_rate: float | None = None
    fitted_on: str = ""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RouterWeights:
        version = int(data.get("version", 0))
        if version != WEIGHTS_VERSION:
            raise ValueError(f"router weights version {version}, expected {WEIGHTS_VERSION}")
        weights = {str(k): float(v) for k, v in dict(data["weights"]).items()}
        unknown = set(weights) - set(FEATURE_NAMES)
        if unknown:
            raise ValueError(f"router weights name unknown features: {sorted(unknown)}")
        rate = data.get("target_think_rate")
        return cls(
            bias=float(data["bias"]),
            weights=weights,
            threshold=float(data.get("threshold", 0.5)),
            version=version,
            target_think_rate=None if rate is None else float(rate),
            fitted_on=str(data.get("fitted_on", "")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "fitted_on": self.fitted_on,
            "target_think_rate": self.target_think_rate,
            "threshold": self.threshold,
            "bias": self.bias,
            "weights": self.weights,
        }


def load_weights(path: Path | None = None) -> RouterWeights:
    """The shipped weights, or `path` (an experiment's candidate)."""
    if path is not None:
        text = path.read_text(encoding="utf-8")
    else:
        text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return RouterWeights.from_dict(json.loads(text))


@dataclass(frozen=True)
class Route:
    think: bool
    p_think: float
    reason: str  # a hard rule's name, or `model:<strongest feature>`
    contributions: dict[str, float] = field(default_factory=dict, compare=False)


def score(values: dict[str, float], weights: RouterWeights) -> tuple[float, dict[str, float]]:
    """P(think) and each feature's share of the logit."""
    parts = {name: weights.weights.get(name, 0.0) * v for name, v in values.items() if v}
    logit = weights.bias + sum(parts.values())
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, logit)))), parts


def route(prompt: RouteInput, weights: RouterWeights) -> Route:
    if prompt.pending_approval:
        return Route(False, 0.0, "approval_answer")
    prepared = Prepared.of(prompt.text)  # normalised once for every rule and cue
    rule = hard_rule(prepared)
    if rule is not None:
        think, reason = rule
        return Route(think, 1.0 if think else 0.0, reason)
    p, parts = score(prepared_features(prepared), weights)
    think = p >= weights.threshold
    # The reason names the cue that pushed hardest the way the decision went (length and
    # sentence count only when no cue did).
    pushed = [(v, k) for k, v in parts.items() if (v > 0) == think and v != 0]
    cues = [item for item in pushed if item[1] not in _SHAPE] or pushed
    strongest = max(cues, key=lambda item: abs(item[0]))[1] if cues else "prior"
    return Route(think, round(p, 4), f"model:{strongest}", parts)
