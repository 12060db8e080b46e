"""Show why: each merge/keep decision carries its rule, its fields and the cosine."""

from __future__ import annotations

import itertools
from datetime import datetime
from zoneinfo import ZoneInfo

from jarvis.agent_layer.openloop.openloop_types import (
    AgendaChange,
    CandidateLoop,
    JudgeFrame,
    LoopScope,
    OpenLoop,
    OpenLoopConfig,
    apply_judgement,
    judge_pair,
)
from jarvis.core.slash.openloop import explain_loop

SEOUL = ZoneInfo("Asia/Seoul")
NOW = int(datetime(2026, 10, 15, 9, 0, tzinfo=SEOUL).timestamp() * 1000)
SCOPE = LoopScope(agent_id="main", user_id="u", session_id="s")
CFG = OpenLoopConfig(cosine_threshold=0.85)


def open_loop(loop_id: str, description: str) -> OpenLoop:
    return OpenLoop(
        id=loop_id, agent_id="main", user_id="u", session_id="s", description=description,
        created_ms=NOW - 1000, updated_ms=NOW - 1000,
    )  # fmt: skip


def apply(shown: list[OpenLoop], text: str, cosine: float | None = None) -> AgendaChange:
    counter = itertools.count(1)
    cosines = {(text, lp.id): cosine for lp in shown} if cosine is not None else None
    return apply_judgement(
        shown, JudgeFrame(new=[CandidateLoop(description=text, evidence=text)]), text, NOW, CFG,
        scope=SCOPE, new_id=lambda: f"new{next(counter)}", cosines=cosines, tz=SEOUL,
    )  # fmt: skip


def test_a_decision_names_its_rule_fields_and_cosine() -> None:
    merged = judge_pair("견적서 보내기", "견적서 전달하기", CFG, 0.93)
    assert (merged.same, merged.rule) == (True, "synonyms")
    assert merged.explain() == (
        "merged by synonyms; agree: action, object; cosine 0.930 (threshold 0.850); "
        "explained: every other word the same after the tables (stems, synonyms)"
    )
    kept = judge_pair("3시 반 미팅", "3시 미팅", CFG, 0.98)
    assert kept.explain().startswith("kept apart (near_miss); differ: time 3:30 ≠ 3:00")
    uncalibrated = judge_pair("머리 자르기", "미용실 가서 커트", OpenLoopConfig(), 0.95)
    assert "cosine 0.950 (threshold uncalibrated)" in uncalibrated.explain()


def test_a_duplicate_is_noted_on_the_loop_without_changing_the_agenda() -> None:
    change = apply([open_loop("q", "견적서 보내기")], "견적서 전달하기", cosine=0.93)
    assert not change.changed
    [noted] = change.noted
    [note] = noted.notes
    assert note.decision is not None
    assert (note.event, note.decision.rule, note.decision.cosine) == ("duplicate", "synonyms", 0.93)


def test_a_new_loop_records_the_near_misses_it_was_kept_apart_from() -> None:
    change = apply([open_loop("three", "3시 미팅 준비")], "3시 반 미팅 준비", cosine=0.98)
    [created] = change.created
    events = [(n.event, n.other_id) for n in created.notes]
    assert events == [("created", None), ("kept_apart", "three")]
    assert "grounded: evidence 1.00 in input" in created.notes[0].detail
    kept = created.notes[1].decision
    assert kept is not None
    assert [c.name for c in kept.fields if c.verdict == "differ"] == ["time"]


def test_explain_shows_every_note() -> None:
    change = apply([open_loop("three", "3시 미팅 준비")], "3시 반 미팅 준비", cosine=0.98)
    [created] = change.created
    text = explain_loop(created, SEOUL, "en")
    assert text.splitlines()[0] == "new1  3시 반 미팅 준비  [open]"
    assert "kept as another promise (compared with three): 3시 반 미팅 준비" in text
    assert "why: kept apart (near_miss); differ: time 3:30 ≠ 3:00" in text
