"""The issue's targets on the team's sets (experiments/thinking_eval.py): 0 traps stored as
facts, every correction retires the old value, every edit survives later extraction."""

from __future__ import annotations

import sys
from pathlib import Path

from ruamel.yaml import YAML

from jarvis.core.user_model import check_statement

EXPERIMENTS = Path(__file__).resolve().parents[3] / "experiments"


def test_no_labelled_trap_passes_the_guard() -> None:
    data = YAML(typ="safe").load((EXPERIMENTS / "data" / "user_model_guard.yaml").read_text())
    through = [
        row["text"]
        for row in data["sentences"]
        if check_statement(row["text"]).fact and not row["fact"]
    ]
    assert through == []


def test_the_40_session_history() -> None:
    sys.path.insert(0, str(EXPERIMENTS))
    from thinking_eval import GOLD, replay

    run = replay()
    active = {(f.field, f.value) for f in run.facts if f.status == "active"}
    assert [f for f in run.facts if f.evidence in run.trap_evidence] == []  # 0 traps stored
    assert active == GOLD
    retired = {(f.field, f.value): f.retired_reason for f in run.facts if f.status == "retired"}
    assert retired[("role", "백엔드 개발자")] == "contradicted"
    assert retired[("timezone", "Asia/Seoul")] == "contradicted"
    assert retired[("interests", "rust")] == "forgotten"


def test_inference_is_off_by_default_and_tentative_until_two_sessions() -> None:
    sys.path.insert(0, str(EXPERIMENTS))
    from thinking_eval import GOLD, INFERRED, replay

    off = replay()
    assert not [f for f in off.facts if f.source == "inferred"]  # off: nothing inferred
    run = replay(infer=True)
    by_value = {f.value: f for f in run.facts if f.source == "inferred"}
    assert set(by_value) == {"Go", "코틀린"}  # the third party's and the hypothetical never
    assert by_value["Go"].status == "active" and by_value["Go"].sessions == ("s8", "s14")
    assert by_value["코틀린"].status == "tentative" and by_value["코틀린"].sessions == ("s22",)
    active = {(f.field, f.value) for f in run.facts if f.status == "active"}
    assert active == GOLD | {("expertise", "Go")}  # stated facts as without inference
    assert [f for f in run.facts if f.evidence in run.trap_evidence] == []
    assert 14 in INFERRED
