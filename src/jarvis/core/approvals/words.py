"""Approvals answered in words: the pure rules (seed 000 "음성 승인은 거부 쪽으로 기운다").

Misreading costs are lopsided: a refusal heard as consent runs a dangerous command, consent heard
as a refusal costs one more sentence. So the rules are deny-biased by construction:

1. any negation → DENY, nothing is classified. A negation is a refusing word or a fragment of
   one *anywhere* in any word, fused or spaced ("실행안해", "승인불가", "yesno", "ok x"), a
   hesitation ("잠깐", "wait") or a refusing sign (👎 🙅 ❌ ✋ 🛑 …);
2. a reply made only of whole, known consent forms (`words_lexicon.CONSENT_FORMS`) and plain
   punctuation → ALLOW (ALWAYS only with an explicit "from now on");
3. anything else — an unknown word, any other symbol or emoji, a polite reply that may decline
   ("괜찮아요", "I'm good") — goes to a classifier model, whose answer is trusted only when it
   is a clear allow (`parse_label`, `combine`); an unreadable or failed answer stays UNCLEAR.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Literal

from jarvis.core.approvals.words_lexicon import (
    ALWAYS_EN_WORDS,
    ALWAYS_PHRASES,
    ALWAYS_TOKEN,
    CONSENT_FORMS,
    CONSENT_REPEATS,
    EN_NEGATION_STEMS,
    EN_NEGATIONS,
    EN_SPLICED,
    KO_NEGATING_SYLLABLES,
    KO_NEGATION_PARTS,
    KO_NEGATION_TOKENS,
    KO_WORDS_WITH_AN,
    NIEUN_SPELLINGS,
    PLAIN_MARKS,
    POLITE_AMBIGUOUS,
    REFUSING_SIGNS,
)

WordsDecision = Literal["allow", "always", "deny", "unclear"]
WordsStage = Literal["empty", "negation", "keyword", "model"]

_TOKEN = re.compile(r"[0-9a-z'\u3131-\u318e\uac00-\ud7a3]+")
_TOKEN_CHAR = re.compile(r"[0-9a-z'\u3131-\u318e\uac00-\ud7a3]")
_HANGUL = re.compile(r"[\u3131-\u318e\uac00-\ud7a3]")
# Longer words are not taken apart: one holding a refusing fragment simply negates. Pieces of a
# fused word are at most as long as the longest word it may be made of (bounded work per word).
_LONGEST_SPLIT = 24
_LONGEST_PIECE = 12


def normalise(text: str) -> str:
    """NFC, lower case, typographic apostrophes made plain, ㄴ however it is spelled."""
    text = unicodedata.normalize("NFC", text).translate(NIEUN_SPELLINGS)
    return text.lower().replace("\u2019", "'").replace("\u2018", "'").strip()


def _folded(text: str) -> str:
    """For finding refusals only: full-width and styled letters read as plain ones ("ｎｏ")."""
    return "".join(
        ch if _HANGUL.match(ch) else unicodedata.normalize("NFKC", ch).lower()
        for ch in normalise(text)
    )


def tokens(text: str) -> list[str]:
    return [word for word in (w.strip("'") for w in _TOKEN.findall(normalise(text))) if word]


def is_plain(text: str) -> bool:
    """Only token letters, spaces and plain punctuation: no emoji, symbol or other script."""
    return all(_TOKEN_CHAR.match(ch) or ch in PLAIN_MARKS for ch in normalise(text))


def _is_consent(token: str) -> bool:
    return token in CONSENT_FORMS or CONSENT_REPEATS.match(token) is not None


@functools.lru_cache(maxsize=4096)
def _is_word(piece: str) -> bool:
    """A piece a fused word may be made of: consent, refusal, politeness or "from now on"."""
    return (
        _is_consent(piece)
        or piece in EN_NEGATIONS
        or piece in ALWAYS_EN_WORDS
        or POLITE_AMBIGUOUS.match(piece) is not None
        or ALWAYS_TOKEN.match(piece) is not None
    )


def _made_of_words(text: str) -> bool:
    """`text` splits into known words ("yesok", "gonow"); one-letter pieces only alone."""
    if _is_word(text):
        return True
    reachable = [True] + [False] * len(text)
    for end in range(2, len(text) + 1):
        reachable[end] = any(
            reachable[start] and _is_word(text[start:end])
            for start in range(max(0, end - _LONGEST_PIECE), end - 1)
        )
    return reachable[-1]


def _spliced(token: str) -> bool:
    """A consent with an English refusal spliced in anywhere: "yesno", "nook", "ynoes"."""
    for fragment in EN_SPLICED:
        start = token.find(fragment)
        while start != -1:
            rest = token[:start] + token[start + len(fragment) :]
            if len(token) > _LONGEST_SPLIT or not rest or _made_of_words(rest):
                return True
            start = token.find(fragment, start + 1)
    return False


def _token_negates(token: str) -> bool:
    if token in EN_NEGATIONS or token in KO_NEGATION_TOKENS or "n't" in token or "nt'" in token:
        return True
    if any(part in token for part in KO_NEGATION_PARTS):
        return True
    bare = token
    for word in KO_WORDS_WITH_AN:
        bare = bare.replace(word, " ")
    if any(syllable in bare for syllable in KO_NEGATING_SYLLABLES):
        return True
    if "x" in token and _HANGUL.search(token):  # "실행X", "X승인"
        return True
    return token.startswith(EN_NEGATION_STEMS) or _spliced(token)


def has_negation(text: str) -> bool:
    """Any refusal, prohibition or hesitation in the reply, in Korean or English, in a word,
    inside one, or as a sign."""
    folded = _folded(text)
    if any(sign in folded for sign in REFUSING_SIGNS):
        return True
    return any(_token_negates(token) for token in dict.fromkeys(tokens(folded)))


def asks_always(text: str) -> bool:
    """An explicit "from now on": the only way a reply in words gives ALWAYS."""
    flat = " ".join(tokens(text))
    return any(phrase in flat for phrase in ALWAYS_PHRASES)


def keyword_decision(text: str) -> WordsDecision | None:
    """The clear cases; None when only a classifier can tell."""
    if has_negation(text):
        return "deny"
    words = tokens(text)
    if not words:
        return "unclear" if is_plain(text) else None  # "..." says nothing; "👍" may
    if not is_plain(text) or any(POLITE_AMBIGUOUS.match(word) for word in words):
        return None
    always = asks_always(text)
    rest = [
        word
        for word in words
        if not (always and (ALWAYS_TOKEN.match(word) or word in ALWAYS_EN_WORDS))
    ]
    if rest and all(_is_consent(word) for word in rest):
        return "always" if always else "allow"
    return None  # "from now on" with no yes in it is not a clear answer


_LABELS: dict[str, WordsDecision] = {
    "allow": "allow",
    "always": "always",
    "deny": "deny",
    "unclear": "unclear",
}


def parse_label(output: str) -> WordsDecision:
    """The classifier's answer: exactly one label word; anything else is UNCLEAR."""
    words = re.findall(r"[a-z]+", output.lower())
    labels = {_LABELS[word] for word in words if word in _LABELS}
    return labels.pop() if len(labels) == 1 else "unclear"


def combine(text: str, label: WordsDecision) -> WordsDecision:
    """A classifier label made safe: ALWAYS needs the person's explicit "from now on" (without
    it the consent counts once); a negation the keyword stage missed still denies."""
    if has_negation(text):
        return "deny"
    if label == "always" and not asks_always(text):
        return "allow"
    return label


def offered(decision: WordsDecision, options: list[str]) -> WordsDecision:
    """What can be answered: ALWAYS not offered → ALLOW once (the person did say yes)."""
    if decision == "always" and "always" not in options:
        return "allow"
    return decision
