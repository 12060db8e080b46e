"""Approvals answered in words: the pure negation and keyword stages, and the classifier rules."""

from __future__ import annotations

import pytest

from jarvis.core.approvals.words import (
    WordsDecision,
    combine,
    has_negation,
    keyword_decision,
    offered,
    parse_label,
)
from jarvis.core.approvals.words_answer import ReplyClassifier, decide
from jarvis.model_layer.providers.faux import FauxProvider

# (reply, what the keyword stage decides; None = only a classifier can tell)
KEYWORD_TABLE: list[tuple[str, WordsDecision | None]] = [
    # Korean refusals, prohibitions and hesitation: DENY without classification.
    ("안 돼", "deny"),
    ("안돼", "deny"),
    ("하지마", "deny"),
    ("하지 마", "deny"),
    ("잠깐", "deny"),
    ("잠깐 이건 하지마", "deny"),
    ("아직 하지 말고 기다려", "deny"),
    ("운영 DB 면 절대 안 돼", "deny"),
    ("아니", "deny"),
    ("아니요 취소해", "deny"),
    ("싫어", "deny"),
    ("ㄴㄴ", "deny"),
    ("그만", "deny"),
    ("실행하지 않아도 돼", "deny"),
    ("네 근데 그건 빼고... 아니 하지 마", "deny"),
    ("응 실행해 아 잠깐만", "deny"),
    ("필요없어", "deny"),
    ("나중에 해", "deny"),
    # English refusals and hesitation.
    ("no", "deny"),
    ("n", "deny"),
    ("no wait", "deny"),
    ("yes but not that", "deny"),
    ("don't", "deny"),
    ("dont run it", "deny"),
    ("Don\u2019t do it", "deny"),
    ("wait", "deny"),
    ("hold on", "deny"),
    ("stop", "deny"),
    ("ok, never mind", "deny"),
    ("yes... actually no", "deny"),
    ("I can't allow that", "deny"),
    # Issue 23: a negation fused to the consent verb, anywhere in the word.
    ("실행안해", "deny"),
    ("실행 안해", "deny"),
    ("실행안돼", "deny"),
    ("진행못해", "deny"),
    ("실행못함", "deny"),
    ("승인불가", "deny"),
    ("승인반려", "deny"),
    ("실행ㄴ", "deny"),
    ("실행\u1102", "deny"),  # ㄴ as a conjoining jamo
    ("실행X", "deny"),
    ("X실행", "deny"),
    ("ok x", "deny"),
    ("안실행해", "deny"),
    ("실행해도됐어", "deny"),
    ("yesno", "deny"),
    ("oknot", "deny"),
    ("ｎｏ", "deny"),  # full-width letters are still a refusal
    # A consent word with a refusing sign: the sign wins.
    ("yes👎", "deny"),
    ("ok 🙅", "deny"),
    ("ok 🙅\u200d♀️", "deny"),
    ("네 ❌", "deny"),
    ("진행해✋", "deny"),
    ("go 🛑", "deny"),
    ("실행해 ⛔", "deny"),
    # Polite replies that often decline: never a keyword allow, the classifier reads them.
    ("괜찮아요", None),
    ("괜찮습니다", None),
    ("네 괜찮아요", None),
    ("I'm good", None),
    ("im fine", None),
    ("fine", None),
    ("thanks", None),
    ("ok thanks", None),
    ("no thanks", "deny"),
    ("no, I'm good", "deny"),
    # Any other sign or script: the classifier reads it, never the keywords.
    ("yes 👍", None),
    ("👍", None),
    ("ok :)", None),
    ("ｙｅｓ", None),
    ("уes", None),  # Cyrillic у
    ("yes\u200b", None),
    # Clear consent: ALLOW.
    ("ㅇㅇ", "allow"),
    ("ㅇㅋ", "allow"),
    ("응", "allow"),
    ("네", "allow"),
    ("좋아", "allow"),
    ("실행해", "allow"),
    ("실행해도 돼", "allow"),
    ("응 진행해줘", "allow"),
    ("응 그렇게 진행해 줘", "allow"),
    ("always allow this", "always"),
    ("네 근데 그건 빼고", "deny"),
    ("그래 해", "allow"),
    ("허용", "allow"),
    ("ok go", "allow"),
    ("yes", "allow"),
    ("Yes!", "allow"),
    ("sure, go ahead", "allow"),
    ("do it", "allow"),
    ("okay run it", "allow"),
    # ALWAYS only with an explicit "from now on".
    ("앞으로도 계속 해도 돼", "always"),
    ("앞으로 항상 허용", "always"),
    ("from now on, yes", "always"),
    ("always allow", "always"),
    # Neither: the classifier decides (or nothing does).
    ("그거 돌려", None),
    ("어 써", None),
    ("이제부터는 알아서 실행해", None),
    ("뭐 하는 건데?", None),
    ("음…", None),
    ("what does it do?", None),
    ("ship it", None),
    ("앞으로", None),
    ("from now on", None),
    ("", "unclear"),
    ("...", "unclear"),
]


@pytest.mark.parametrize(("reply", "expected"), KEYWORD_TABLE)
def test_keyword_stage(reply: str, expected: WordsDecision | None) -> None:
    assert keyword_decision(reply) == expected


def test_the_table_is_large_and_covers_every_outcome() -> None:
    assert len(KEYWORD_TABLE) >= 40
    assert {expected for _, expected in KEYWORD_TABLE} == {
        "allow",
        "always",
        "deny",
        "unclear",
        None,
    }


@pytest.mark.parametrize(
    ("reply", "negates"),
    [
        ("안녕하세요 실행해", False),  # 안녕, 안전: the syllable 안 in a word that refuses nothing
        ("안전하게 실행해", False),
        ("do it now", False),  # "now", "note", "know" hold "no" but are not a "no" spliced in
        ("note it", False),
        ("I know", False),
        ("not", True),
        ("nothing to add", True),
        ("말고", True),
        ("편안해", True),  # 안해 inside a word: deny-biased, one more sentence at worst
        ("cancelled", True),
        ("waiting", True),
    ],
)
def test_negation_is_found_in_words_not_in_every_syllable(reply: str, negates: bool) -> None:
    assert has_negation(reply) == negates


@pytest.mark.parametrize(
    ("output", "label"),
    [
        ("allow", "allow"),
        ("ALLOW.", "allow"),
        (" always\n", "always"),
        ("deny", "deny"),
        ("unclear", "unclear"),
        ("allow or deny", "unclear"),
        ("I think yes", "unclear"),
        ("", "unclear"),
    ],
)
def test_only_one_clear_label_is_read(output: str, label: WordsDecision) -> None:
    assert parse_label(output) == label


@pytest.mark.parametrize(
    ("reply", "label", "decision"),
    [
        ("그거 돌려", "allow", "allow"),
        ("그거 돌려", "always", "allow"),  # no "from now on": consent counts once
        ("이제부터는 알아서 실행해", "always", "always"),
        ("ship it", "deny", "deny"),
        ("ship it", "unclear", "unclear"),
    ],
)
def test_a_label_is_made_safe(reply: str, label: WordsDecision, decision: WordsDecision) -> None:
    assert combine(reply, label) == decision


def test_always_not_offered_counts_once() -> None:
    assert offered("always", ["allow", "deny"]) == "allow"
    assert offered("always", ["allow", "always", "deny"]) == "always"
    assert offered("deny", ["allow", "deny"]) == "deny"


async def test_negation_never_reaches_the_classifier() -> None:
    model = FauxProvider(["allow"])
    verdict = await decide("no wait", "bash", ReplyClassifier(model, "faux"))
    assert (verdict.decision, verdict.stage) == ("deny", "keyword")
    assert model.call_count == 0


async def test_the_classifier_decides_the_rest_and_a_failure_stays_pending() -> None:
    model = FauxProvider(["allow", {"error": "down", "error_kind": "unreachable"}])
    classifier = ReplyClassifier(model, "faux")
    assert (await decide("그거 돌려", "bash", classifier)).decision == "allow"
    assert model.calls[0].messages[0].content == "Tool: bash\nReply: 그거 돌려"
    assert (await decide("그거 돌려", "bash", classifier)).decision == "unclear"
    assert (await decide("그거 돌려", "bash", None)).decision == "unclear"
