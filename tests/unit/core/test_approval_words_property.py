"""Answers in words are deny-biased by construction: an exhaustive property test.

Every known consent form, with every negation fragment put before it, after it, inside it at
every position (fused and spaced), with and without a refusing sign, is never an allow: not by
keyword, and not even when the classifier model answers "allow" or "always" (the worst model).
Generated exhaustively (no hypothesis dependency): every case runs on every test run.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from jarvis.core.approvals.words import combine, has_negation, keyword_decision
from jarvis.core.approvals.words_lexicon import CONSENT_FORMS

# Replies that consent in more than one word, beside every single-word form.
MULTI_WORD_CONSENT = (
    "go ahead", "sure go ahead", "do it", "do it now", "yes please", "ok run it", "ok go",
    "실행해도 돼", "응 실행해", "그래 해", "응 그렇게 진행해 줘", "네 진행해주세요",
    "앞으로도 계속 해도 돼", "from now on yes", "always allow this", "ㅇㅇ", "ㅇㅋ", "ㄱㄱ",
    "yesss", "gooo", "okk",
)  # fmt: skip
CONSENT = sorted(CONSENT_FORMS) + list(MULTI_WORD_CONSENT)

# The refusals of issue 23 and their kin, as people type them fused to another word.
NEGATION_FRAGMENTS = (
    "안", "안돼", "안되", "안해", "안함", "안됨", "안할래", "못", "못해", "못함", "불가",
    "반려", "ㄴ", "ㄴㄴ", "X", "x", "아니", "아냐", "싫어", "말고", "하지마", "않아", "취소",
    "거부", "그만", "잠깐", "노노", "없어", "됐어", "no", "not", "nope", "nah", "don't",
    "dont", "never", "cancel", "stop", "wait", "deny", "n't",
)  # fmt: skip
REFUSING_SIGNS = ("👎", "🙅", "🙅\u200d♂️", "❌", "✋", "🛑", "⛔", "🚫", "✖️", "👎🏽")
POLITE = (
    "괜찮아요", "괜찮습니다", "괜찮아", "no thanks", "I'm good", "im fine", "thanks", "all good",
)  # fmt: skip


def placements(consent: str, fragment: str) -> Iterator[str]:
    """The fragment before, after and inside the consent, fused and spaced."""
    for glue in ("", " "):
        yield fragment + glue + consent
        yield consent + glue + fragment
        for cut in range(1, len(consent)):
            yield consent[:cut] + glue + fragment + glue + consent[cut:]


def never_allowed(reply: str) -> str | None:
    """None when the reply is safe; else what went wrong."""
    if keyword_decision(reply) in ("allow", "always"):
        return f"keyword allow: {reply!r}"
    for label in ("allow", "always"):
        if combine(reply, label) in ("allow", "always"):
            return f"classifier {label} kept: {reply!r}"
    return None


def test_the_generated_sets_are_large() -> None:
    assert len(CONSENT) >= 250
    assert all(keyword_decision(form) in ("allow", "always") for form in CONSENT)


@pytest.mark.parametrize("fragment", NEGATION_FRAGMENTS)
def test_a_negation_fragment_anywhere_denies(fragment: str) -> None:
    failures = []
    count = 0
    for consent in CONSENT:
        for reply in placements(consent, fragment):
            count += 1
            if not has_negation(reply):
                failures.append(reply)
            elif problem := never_allowed(reply):
                failures.append(problem)
    assert count > 1000
    assert not failures, failures[:20]


@pytest.mark.parametrize("sign", REFUSING_SIGNS)
def test_a_refusing_sign_anywhere_denies(sign: str) -> None:
    failures = []
    for consent in CONSENT:
        for reply in placements(consent, sign):
            if keyword_decision(reply) != "deny" or never_allowed(reply):
                failures.append(reply)
        # ... and a fused negation with a sign after it ("실행안해👎").
        reply = consent + "안해" + sign
        if keyword_decision(reply) != "deny":
            failures.append(reply)
    assert not failures, failures[:20]


def test_any_other_sign_is_never_a_keyword_allow() -> None:
    # Not known to refuse, but not plain either: the classifier reads it, never the keywords.
    for consent in CONSENT:
        for sign in ("👍", "🙂", "→", "★", "©", "\u200b", "\u202e", "ｙ", "уes"):
            for reply in (consent + sign, sign + " " + consent):
                assert keyword_decision(reply) not in ("allow", "always"), reply


@pytest.mark.parametrize("polite", POLITE)
def test_a_polite_reply_that_may_decline_is_never_a_keyword_allow(polite: str) -> None:
    for consent in CONSENT:
        for reply in (polite, f"{consent} {polite}", f"{polite} {consent}"):
            assert keyword_decision(reply) not in ("allow", "always"), reply
