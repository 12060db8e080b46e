"""The team's labelled pairs (experiments/data/loop_pairs.yaml), text rules alone: no false
merge on the tuning splits. The held-out `fresh` split is only scored by the experiment."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[3]


def _experiment() -> ModuleType:
    path = ROOT / "experiments" / "loop_embedding.py"
    spec = importlib.util.spec_from_file_location("loop_embedding", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["loop_embedding"] = module
    spec.loader.exec_module(module)
    return module


def test_the_set_is_large_and_covers_every_kind() -> None:
    experiment = _experiment()
    _, pairs = experiment.load_pairs()
    assert len(pairs) >= 200
    assert {p.lang for p in pairs} == {"ko", "en"}
    different = {p.kind for p in pairs if not p.same}
    assert {"time", "half", "day", "count", "amount", "recipient", "object", "action", "undo"} <= (
        different
    )


def test_text_rules_make_no_false_merge_on_the_tuning_pairs() -> None:
    experiment = _experiment()
    today, pairs = experiment.load_pairs()
    for split in ("tune", "tune_b", "tune_d"):
        chosen = [p for p in pairs if p.split == split]
        got = experiment.verdicts(chosen, [None] * len(chosen), today, None)
        false_merges = [
            (p.a, p.b) for p, (m, _) in zip(chosen, got, strict=True) if m and not p.same
        ]
        correct = sum(m == p.same for p, (m, _) in zip(chosen, got, strict=True))
        assert false_merges == []
        assert correct / len(chosen) >= 0.95
