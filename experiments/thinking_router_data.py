"""The thought router's labelled set and its measures (shared by the fit and the eval scripts)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML

from jarvis.agent_layer.thought import RouteInput, RouterWeights, route

DATA = Path(__file__).resolve().parent / "data" / "thinking_router.yaml"


@dataclass(frozen=True)
class Labelled:
    text: str
    think: bool
    pending_approval: bool = False

    @property
    def prompt(self) -> RouteInput:
        return RouteInput(self.text, pending_approval=self.pending_approval)


def load(half: str, path: Path = DATA) -> list[Labelled]:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    return [
        Labelled(str(row["text"]), bool(row["think"]), bool(row.get("pending_approval", False)))
        for row in data[half]
    ]


def auc(scores: list[float], labels: list[bool]) -> float:
    """Probability a random think-needed prompt scores above a random other one (ties half)."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


@dataclass(frozen=True)
class RouterReport:
    n: int
    accuracy: float
    auc: float
    recall: float
    precision: float
    think_rate: float
    errors: list[tuple[str, bool, float, str]]


def evaluate(rows: list[Labelled], weights: RouterWeights) -> RouterReport:
    routes = [route(row.prompt, weights) for row in rows]
    labels = [row.think for row in rows]
    decided = [r.think for r in routes]
    tp = sum(d and y for d, y in zip(decided, labels, strict=True))
    correct = sum(d == y for d, y in zip(decided, labels, strict=True))
    errors = [
        (row.text, row.think, r.p_think, r.reason)
        for row, r in zip(rows, routes, strict=True)
        if r.think != row.think
    ]
    return RouterReport(
        n=len(rows),
        accuracy=correct / len(rows),
        auc=auc([r.p_think for r in routes], labels),
        recall=tp / max(1, sum(labels)),
        precision=tp / max(1, sum(decided)),
        think_rate=sum(decided) / len(rows),
        errors=errors,
    )
