"""What both speaking-first sets share: the rubric's gold rating profiles, the measures and the
Inner Thoughts-style baseline swept to equal recall."""

from __future__ import annotations

from collections.abc import Callable, Sequence

Measures = tuple[float, float, float, float, int]  # precision, recall, F1, annoyance, false alarms

PROFILES = {  # gold 1-5 ratings: relevance, urgency, impact, originality, timing
    "good": (5, 4, 5, 4, 4),
    "solid": (4, 4, 4, 4, 4),
    "mediocre": (4, 3, 4, 3, 3),
    "lopsided": (5, 5, 5, 5, 1),  # a high mean, but the moment is wrong
    "bad": (2, 2, 3, 2, 2),
}


def measures(tp: int, fp: int, positives: int) -> Measures:
    """Annoyance is false alarms / messages sent; nothing sent counts as precision 1.0."""
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / positives if positives else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    annoyance = fp / (tp + fp) if tp + fp else 0.0
    return precision, recall, f1, annoyance, fp


def sweep_to_recall(
    measure_at: Callable[[float], Measures], recall: float
) -> tuple[float, Measures]:
    """The baseline (speak when the mean rating ≥ τ) at the highest τ from 1.00 to 5.00 (by 0.01)
    whose recall is at least `recall` — its fewest false alarms at equal recall."""
    best: tuple[float, Measures] | None = None
    for step in range(401):
        tau = 1.0 + step / 100
        measured = measure_at(tau)
        if measured[1] + 1e-12 >= recall:
            best = (tau, measured)
    assert best is not None  # τ = 1.00 speaks whenever there is a candidate
    return best


def pairs_measures(decisions: Sequence[tuple[bool, bool]]) -> Measures:
    """One candidate per situation: (said, worth saying) pairs."""
    tp = sum(said and gold for said, gold in decisions)
    fp = sum(said and not gold for said, gold in decisions)
    return measures(tp, fp, sum(gold for _, gold in decisions))
