"""Only the person's words become promises (seed 001 "입력 근거 검사", ▲ for Latin scripts).

``grounded``: the candidate's evidence (≥ 50 %) or else its description (≥ 20 %) is found in the
user's utterance, nothing else (not the judge's prompt, not memory). Hangul is measured in
whitespace-free character bigrams, as the seed does; Latin-script words are measured as whole
words with function words left out, because English bigrams overlap by chance: unrelated
sentences share 24–27 % of them, and a Latin description needs two of its words in the input.
A candidate that opens like an assistant's reply ("Sure, I can
give you …") is the model talking and is never grounded.

``echoes_prompt``: a candidate made of the judge's own instructions (its prompt echoed back as
a "promise") is dropped before anything else.
"""

from __future__ import annotations

import re

from jarvis.agent_layer.openloop import tables as T
from jarvis.agent_layer.openloop.config import OpenLoopConfig
from jarvis.agent_layer.openloop.normalise import char_bigrams, is_hangul, normalise

_LATIN_WORD_RE = re.compile(r"[a-z][a-z0-9]*")


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
