"""Only the person's words become promises (seed 001 "입력 근거 검사", ▲ for Latin scripts).

``grounded``: the candidate's evidence (≥ 50 %) or else its description (≥ 20 %) is found in the
user's utterance, nothing else (not the judge's prompt, not memory). Hangul is measured in
whitespace-free character bigrams, as the seed does; Latin-script words are measured as whole
words with function words left out, because English bigrams overlap by chance: unrelated
sentences share 24–27 % of them, and a Latin description needs two of its words in the input.
A candidate that opens like an assistant's reply ("Sure, I can
give you …") is the model talking and is never grounded.

``quote``: ▲ every kept item carries evidence quoted from the person's words — the judge's
evidence when the input holds it word for word, else the input clause that holds most of it
(or of the description, when the judge gave none). A judge's paraphrase is never stored as
the person's words.

``promise_shaped``: ▲ an item is a verb phrase of at least two words ("보고서 보내기", "call
Mom"; a Korean verb written as one word, "장보기", is a stem and a verb). A single word
("bash", "회의") never becomes a promise, whatever its grounding.

``echoes_prompt``: a candidate made of the judge's own instructions (its prompt echoed back as
a "promise") is dropped before anything else.
"""

from __future__ import annotations

import re

from jarvis.agent_layer.openloop import tables as T
from jarvis.agent_layer.openloop.config import OpenLoopConfig
from jarvis.agent_layer.openloop.normalise import (
    char_bigrams,
    has_hangul,
    is_hangul,
    normalise,
    read_words,
)

_LATIN_WORD_RE = re.compile(r"[a-z][a-z0-9]*")
_CLAUSE_RE = re.compile(r"[^.!?;,\n。！？]+")
# A Korean word that ends like a verb: "보내기", "보내야", "할게", "하자", "보내줘", "제출해".
_KO_VERB_END_RE = re.compile(
    r"(?:기|야|야지|해|했|할|함|자|게|줘|래|요|죠|다|까|세요|봐|려|러|니까)$"
)
# English words that introduce a verb: "I need to exercise", "I'll renew it", "remind me to".
_EN_VERB_CUE_RE = re.compile(
    r"\b(?:need|needs|have|has|got|must|should|will|ll|gonna|going|want|wanna|promised?"
    r"|remind\s+me|remember|forget|plan|try)\s+(?:to\s+)?[a-z]{2,}",
)


def grounded(description: str, evidence: str | None, user_input: str, cfg: OpenLoopConfig) -> bool:
    """The loop comes from this input: its evidence (≥ 50 %) or else its wording (≥ 20 %)."""
    if assistant_voice(description):
        return False
    source = units(user_input)
    if evidence and coverage(units(evidence), source) >= cfg.grounded_evidence_ratio:
        return True
    mine = units(description)
    if coverage(mine, source) < cfg.grounded_description_ratio:
        return False
    # One shared English word is chance ("Lisbon"); a Latin description needs two.
    words = {u for u in mine if u.startswith("w:")}
    return len(words) < 2 or len(words & source) >= 2 or len(mine - words) > 0


def echoes_prompt(text: str, prompt: str, user_input: str) -> bool:
    """Most of ``text`` is in the judge's prompt and less of it in the user's words."""
    mine = units(text)
    from_prompt = coverage(mine, units(prompt))
    return from_prompt >= 0.5 and from_prompt > coverage(mine, units(user_input))


def assistant_voice(description: str) -> bool:
    plain = normalise(description)
    return any(
        plain == o or plain.startswith(o if is_hangul(o[0]) else o + " ")
        for o in T.ASSISTANT_OPENERS
    )


def units(text: str) -> frozenset[str]:
    """Hangul character bigrams plus Latin content words (as ``w:word``)."""
    plain = normalise(text)
    hangul = "".join(c if is_hangul(c) else " " for c in plain)
    grams = set(char_bigrams(hangul)) if hangul.strip() else set()
    words = {
        f"w:{w}" for w in _LATIN_WORD_RE.findall(plain) if w not in T.EN_STOPWORDS and len(w) > 1
    }
    return frozenset(grams | words)


def coverage(part: frozenset[str], whole: frozenset[str]) -> float:
    return len(part & whole) / len(part) if part else 0.0


def quote(description: str, evidence: str | None, user_input: str) -> str:
    """The person's words the item stands on, quoted from ``user_input`` (see the module)."""
    if evidence and _squeezed(evidence) in _squeezed(user_input):
        return " ".join(evidence.split())
    wanted = units(evidence) if evidence else frozenset()
    if not wanted or coverage(wanted, units(user_input)) == 0:
        wanted = units(description)
    clauses: list[str] = [c.strip() for c in _CLAUSE_RE.findall(user_input) if c.strip()]
    if not clauses:
        return " ".join(user_input.split())
    return max(clauses, key=lambda c: coverage(wanted, units(c)))


def promise_shaped(description: str, evidence: str) -> bool:
    """A verb phrase of two words or more: never a single word ("bash")."""
    return _word_count(description) >= 2 and (_has_verb(description) or _has_verb(evidence))


def _word_count(text: str) -> int:
    words = [w for w in normalise(text).split() if w not in T.EN_STOPWORDS and not w.isdigit()]
    # "장보기" is a stem and a verb; "회의" is one word.
    verbs = [w for w in words if has_hangul(w) and len(w) >= 3 and _KO_VERB_END_RE.search(w)]
    return len(words) + len(verbs)


def _has_verb(text: str) -> bool:
    words = read_words(text)
    if any(not c.startswith("?") for classes in words.actions.values() for c in classes):
        return True
    plain = normalise(text)
    if has_hangul(plain):
        return any(
            _KO_VERB_END_RE.search(w) and not w.endswith("까지")
            for w in plain.split()
            if len(w) > 1
        )
    if _EN_VERB_CUE_RE.search(plain):
        return True
    # An imperative ("walk the dog"): a first word that is no function word and no adjective
    # or noun by its ending ("quarterly report", "documentation update").
    first = plain.split()[0] if plain.split() else ""
    return bool(first) and first not in T.EN_STOPWORDS and not first.endswith(_EN_NOT_VERB_ENDS)


_EN_NOT_VERB_ENDS = ("ly", "tion", "sion", "ment", "ness", "ity", "al", "ous", "ive", "ic", "ary")


def _squeezed(text: str) -> str:
    return "".join(normalise(text).split())
