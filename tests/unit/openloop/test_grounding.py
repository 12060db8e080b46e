"""Only the person's words become promises: grounding per script, the judge's own voice and
prompt, and dues read from the user's words only."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from jarvis.agent_layer.openloop.judge import drop_echoes
from jarvis.agent_layer.openloop.judge_parse import fill_due
from jarvis.agent_layer.openloop.openloop_types import (
    CandidateLoop,
    JudgeFrame,
    OpenLoopConfig,
    grounded,
)

CFG = OpenLoopConfig()
SEOUL = ZoneInfo("Asia/Seoul")
NOW = datetime(2026, 10, 15, 9, 0, tzinfo=SEOUL)


@pytest.mark.parametrize(
    ("description", "evidence", "user_input", "expected"),
    [
        # English is grounded on whole words: unrelated sentences share ~25 % of bigrams.
        ("Book the flights to Lisbon", None, "what's the weather like in Lisbon in May", False),
        ("Send the quarterly report to my manager", None, "I should water the plants first", False),
        ("Renew the car insurance", None, "remind me to renew the car insurance", True),
        ("Ship the order", "ship the order on Friday", "I have to ship the order on Friday", True),
        # The judge talking as an assistant is never the person's promise.
        ("Sure, I can give you a fact about cats", None, "tell me a fact about cats", False),
        ("Here is a recipe for pancakes", None, "give me a recipe for pancakes", False),
        ("물론이죠 고양이에 대해 알려드릴게요", None, "고양이에 대해 알려줘", False),
        # Korean stays on character bigrams, as the seed measured.
        ("보고서 보내기", None, "내일까지 보고서 보내야 해", True),
    ],
)
def test_grounded_per_script(
    description: str, evidence: str | None, user_input: str, expected: bool
) -> None:
    assert grounded(description, evidence, user_input, CFG) is expected


def test_the_judges_echo_of_its_prompt_is_dropped() -> None:
    frame = JudgeFrame(
        new=[
            CandidateLoop(description="Write only things the user newly said in this input"),
            CandidateLoop(description="One new loop per line"),
            CandidateLoop(description="Send the invoice", evidence="I need to send the invoice"),
        ]
    )
    kept = drop_echoes(frame, "en", "I need to send the invoice")
    assert [c.description for c in kept.new] == ["Send the invoice"]


def test_a_judge_due_without_a_deadline_in_the_users_words_is_dropped() -> None:
    junk = JudgeFrame(new=[CandidateLoop(description="Sure, a fact about cats", due_ms=123)])
    [candidate] = fill_due(junk, "tell me a fact about cats", NOW, SEOUL).new
    assert candidate.due_ms is None and "no deadline" in candidate.due_source
    real = JudgeFrame(new=[CandidateLoop(description="보고서 보내기", due_ms=123)])
    [kept] = fill_due(real, "내일까지 보고서 보내야 해", NOW, SEOUL).new
    assert kept.due_ms == 123


def test_a_due_is_read_only_from_words_the_user_said() -> None:
    # The judge's description mentions a day the user never said.
    frame = JudgeFrame(
        new=[
            CandidateLoop(description="금요일까지 보고서 보내기", evidence="보고서 보내야 해"),
            CandidateLoop(description="회의 준비", evidence="회의 준비"),
        ]
    )
    filled = fill_due(frame, "보고서 보내야 해, 회의 준비도", NOW, SEOUL)
    assert [c.due_ms for c in filled.new] == [None, None]
    said = JudgeFrame(new=[CandidateLoop(description="보고서 보내기", evidence="보고서 보내기")])
    [candidate] = fill_due(said, "보고서 금요일까지 보내야 해", NOW, SEOUL).new
    assert candidate.due_source == "user words: 금요일"
