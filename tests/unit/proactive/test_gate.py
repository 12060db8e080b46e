"""Speaking first: the gate's vetoes and thresholds, the learner, one pass (issue 26 items 4, 6)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from jarvis.core.proactive import (
    Candidate,
    Policy,
    ProactiveCore,
    Situation,
    decide,
    parse_candidates,
)
from jarvis.core.proactive.gate import score, within_budget
from jarvis.core.proactive.learner import LearnerState, acceptance, muted, record, threshold

HIGH = {"relevance": 5, "urgency": 5, "impact": 5, "originality": 5, "timing": 5}
MID = {"relevance": 4, "urgency": 3, "impact": 4, "originality": 3, "timing": 4}
GOOD = Candidate("reminder", "보고서 마감이 1시간 남았어요", "report", HIGH, due_in_min=50)
IDEA = Candidate("suggestion", "테스트를 병렬로 돌려 볼까요?", "tests", HIGH)
CALM = Situation(local_hour=14)
POLICY = Policy()


@pytest.mark.parametrize(
    ("candidate", "situation", "reason"),
    [
        (GOOD, CALM, "speak"),
        (GOOD, replace(CALM, turn_running=True), "turn_running"),
        (GOOD, replace(CALM, approval_pending=True), "approval_pending"),
        (IDEA, replace(CALM, local_hour=23), "quiet_hours"),
        (IDEA, replace(CALM, local_hour=7), "quiet_hours"),
        (GOOD, replace(CALM, local_hour=23), "speak"),  # a reminder due within the hour
        (IDEA, replace(CALM, muted_topics=frozenset({"tests"})), "muted_topic"),
        (IDEA, replace(CALM, today_count=3), "daily_max"),
        (IDEA, replace(CALM, minutes_since_last=10), "too_soon"),
        (GOOD, replace(CALM, minutes_since_last=10), "speak"),  # urgent beats the gap
        (IDEA, replace(CALM, recent_topics=frozenset({"tests"})), "not_new"),
        (replace(IDEA, text="  "), CALM, "empty"),
        (replace(IDEA, ratings=MID), CALM, "below_threshold"),
        (replace(IDEA, ratings={**HIGH, "timing": 2}), CALM, "weak_factor"),
        (replace(GOOD, due_in_min=600), CALM, "speak"),  # a far due time never weakens it
        (IDEA, CALM, "speak"),
    ],
)
def test_vetoes_first_then_the_threshold(
    candidate: Candidate, situation: Situation, reason: str
) -> None:
    verdict = decide(candidate, situation, POLICY)
    assert (verdict.reason, verdict.speak) == (reason, reason == "speak")


def test_one_weak_factor_holds_a_high_mean_back() -> None:
    lopsided = {**HIGH, "timing": 1}
    assert score(replace(IDEA, ratings=lopsided), CALM) < score(IDEA, CALM)
    assert not decide(replace(IDEA, ratings=lopsided), CALM, POLICY).speak


def test_the_learner_raises_a_kinds_threshold_and_mutes_a_topic() -> None:
    state = LearnerState()
    assert threshold(state, "suggestion", 0.75) == 0.75 and acceptance(state, "suggestion") == 0.5
    for _ in range(4):
        state = record(state, "suggestion", "tests", "ignored", 0)
    assert threshold(state, "suggestion", 0.75) == 0.75  # ignored weighs half: 2 of 4 samples
    for _ in range(4):
        state = record(state, "suggestion", "tests", "ignored", 0)
    assert threshold(state, "suggestion", 0.75) == 1.0  # precision 0 → raised the most
    state = record(state, "news", "crypto", "thumbs_down", 0)
    assert muted(state, 1) == frozenset()
    state = record(state, "news", "crypto", "thumbs_down", 0)
    assert muted(state, 1) == {"crypto"} and muted(state, 15 * 86_400_000) == frozenset()
    state = record(state, "follow_up", "deploy", "stop_topic", 0)  # said once: muted at once
    assert "deploy" in muted(state, 1)
    good = LearnerState()
    for _ in range(4):
        good = record(good, "reminder", "report", "do_it", 0)
    assert threshold(good, "reminder", 0.55) == 0.55 and acceptance(good, "reminder") == 5 / 6


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("", 0),
        ("no json", 0),
        ("[{]", 0),
        (json.dumps([{"kind": "suggestion", "text": "x", "topic": "t", "ratings": HIGH}]), 1),
        (json.dumps([{"kind": "run_tool", "text": "x", "topic": "t", "ratings": HIGH}]), 0),
        (json.dumps([{"kind": "news", "text": "x", "topic": "t", "ratings": {"relevance": 5}}]), 0),
        (json.dumps([{"kind": "news", "text": "x", "topic": "t", "ratings": HIGH}] * 5), 3),
    ],
)
def test_parse_candidates(text: str, count: int) -> None:
    assert len(parse_candidates(text)) == count


class Reflection:
    def __init__(self, reply: str, used: int = 1000) -> None:
        self.reply = reply
        self.used = used
        self.calls = 0

    async def __call__(self, prompt: str) -> tuple[str, int]:
        self.calls += 1
        return self.reply, self.used


REPLY = json.dumps([{"kind": "suggestion", "text": "병렬 테스트?", "topic": "t", "ratings": HIGH}])


async def test_an_unchanged_fingerprint_makes_no_call() -> None:
    reflect = Reflection(REPLY)
    core = ProactiveCore(reflect, POLICY)
    first = await core.run_pass({"agenda": ["a"]}, "p", CALM, "2026-12-04")
    again = await core.run_pass({"agenda": ["a"]}, "p", CALM, "2026-12-04")
    assert (first.called, first.reason) == (True, "spoke") and first.said is not None
    assert (again.called, again.reason, reflect.calls) == (False, "unchanged", 1)
    changed = await core.run_pass({"agenda": ["a", "b"]}, "p", CALM, "2026-12-04")
    assert changed.called and reflect.calls == 2


async def test_the_daily_budget_is_never_exceeded_and_resets_with_the_day() -> None:
    reflect = Reflection(REPLY, used=1500)
    core = ProactiveCore(reflect, POLICY, daily_tokens=5000, estimate_tokens=1500)
    results = [await core.run_pass({"n": i}, "p", CALM, "d1") for i in range(10)]
    assert reflect.calls == 3 and core.used_today == 4500 <= 5000
    assert [r.reason for r in results[3:]] == ["over_budget"] * 7
    assert not within_budget(4500, 1500, 5000) and within_budget(3500, 1500, 5000)
    await core.run_pass({"n": 99}, "p", CALM, "d2")
    assert reflect.calls == 4


async def test_a_failed_or_empty_reflection_says_nothing() -> None:
    async def broken(prompt: str) -> tuple[str, int]:
        raise RuntimeError("server down")

    async def hung(prompt: str) -> tuple[str, int]:
        await asyncio.Event().wait()
        return "", 0

    for reflect, reason in (
        (broken, "failed"),
        (hung, "failed"),
        (Reflection("nope"), "no_candidates"),
    ):
        core = ProactiveCore(reflect, POLICY, timeout_sec=0.01)
        result = await core.run_pass({"x": 1}, "p", CALM, "d")
        assert (result.said, result.reason) == (None, reason)


async def test_a_pass_only_proposes_text_it_never_runs_anything() -> None:
    """The core has no tools to call: a candidate that asks for a command is only a line."""
    reply = json.dumps(
        [{"kind": "suggestion", "text": "rm -rf ~ 를 실행할까요?", "topic": "t", "ratings": HIGH}]
    )
    core = ProactiveCore(Reflection(reply), POLICY)
    result = await core.run_pass({"x": 1}, "p", CALM, "d")
    assert result.said is not None and result.said.text == "rm -rf ~ 를 실행할까요?"
    assert not hasattr(core, "tools")
