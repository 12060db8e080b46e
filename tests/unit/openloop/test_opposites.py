"""Issue 30: a cosine merge must explain every difference. Opposites (KO/EN) are hard
differences whatever the cosine; a soft difference merges only when the embedder places its
differing spans close on their own; every merge says how each differing word was explained."""

from __future__ import annotations

import pytest

from jarvis.agent_layer.openloop.openloop_types import OpenLoopConfig, judge_pair
from jarvis.agent_layer.openloop.same_loop import differing_spans

CFG = OpenLoopConfig(cosine_threshold=0.9, span_threshold=0.95)


def every_span(a: str, b: str, cosine: float) -> dict[tuple[str, str], float]:
    return {pair: cosine for pair in differing_spans(a, b)}


@pytest.mark.parametrize(
    ("a", "b", "a_word", "b_word"),
    [
        ("Attend the board meeting", "skip the board meeting", "attend", "skip"),
        ("Upload the photos to the drive", "download the photos from the drive", "upload",
         "download"),
        ("Move the files to the server", "move the files from the server", "to", "from"),
        ("Turn on the heater", "turn off the heater", "on", "off"),
        ("Lock the back door", "unlock the back door", "lock", "unlock"),
        ("Start the nightly backup", "stop the nightly backup", "start", "stop"),
        ("보일러 켜기", "보일러 끄기", "켜", "끄"),
        ("창문 열기", "창문 닫기", "열", "닫"),
        ("이사회 참석하기", "이사회 불참하기", "참석", "불참"),
        ("드라이브에 사진 올리기", "드라이브에서 사진 내려받기", "올리", "내려"),
        ("짐 차에 싣기", "짐 차에서 내리기", "싣", "내리"),
    ],
)  # fmt: skip
def test_an_opposite_is_never_merged(a: str, b: str, a_word: str, b_word: str) -> None:
    decision = judge_pair(a, b, CFG, 0.99, spans=every_span(a, b, 1.0))
    assert not decision.same and decision.kept_because == "near_miss"
    [opposite] = [c for c in decision.fields if c.name == "opposite"]
    assert (a_word in opposite.a, b_word in opposite.b) == (True, True)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Move the files to the server", "transfer the files to the server"),
        ("Send the slides to Mia", "forward the slides to Mia"),
        ("보일러 켜기", "보일러 켜 두기"),
        ("Move the boxes from the garage to the attic", "move the boxes to the attic"),
    ],
)
def test_the_same_direction_is_no_opposite(a: str, b: str) -> None:
    decision = judge_pair(a, b, CFG)
    assert not [c for c in decision.fields if c.name == "opposite"]


@pytest.mark.parametrize(
    ("a", "b", "spans"),
    [
        ("Return the laptop", "return the monitor", ("laptop", "monitor")),
        ("Print the papers", "scan the papers", ("print", "scan")),
        ("노트북 반납하기", "모니터 반납하기", ("노트북", "모니터")),
        ("머리 자르기", "미용실 가서 커트", None),
    ],
)
def test_a_soft_difference_needs_its_spans_close(
    a: str, b: str, spans: tuple[str, str] | None
) -> None:
    pairs = differing_spans(a, b)
    assert pairs and (spans is None or spans in pairs)
    # The whole descriptions' cosine alone never merges them.
    alone = judge_pair(a, b, CFG, 0.99)
    assert not alone.same and any("unexplained (no span cosine)" in e for e in alone.explained)
    # The embedder places the spans apart: kept, and it says which words were unexplained.
    apart = judge_pair(a, b, CFG, 0.99, spans=every_span(a, b, 0.90))
    assert not apart.same and "unexplained, span cosine 0.900 < 0.950" in apart.explain()
    # Close on their own: merged, and the reason names how each word was explained.
    close = judge_pair(a, b, CFG, 0.99, spans=every_span(a, b, 0.97))
    assert close.same and close.rule == "cosine"
    assert "paraphrase, span cosine 0.970 ≥ 0.950" in close.explain()
    # An embedder without a span calibration never merges a soft difference.
    uncalibrated = OpenLoopConfig(cosine_threshold=0.9)
    assert not judge_pair(a, b, uncalibrated, 0.99, spans=every_span(a, b, 1.0)).same


def test_a_negation_never_reaches_the_cosine() -> None:
    for a, b in (
        ("Call the landlord", "don't call the landlord"),
        ("엄마한테 말하기", "엄마한테 말하지 않기"),
    ):
        decision = judge_pair(a, b, CFG, 0.99, spans=every_span(a, b, 1.0))
        assert not decision.same and decision.kept_because == "near_miss"


def test_a_text_merge_names_how_its_words_were_explained() -> None:
    decision = judge_pair("견적서 보내기", "견적서 전달하기", CFG)
    assert decision.rule == "synonyms"
    assert decision.explained == ["every other word the same after the tables (stems, synonyms)"]
