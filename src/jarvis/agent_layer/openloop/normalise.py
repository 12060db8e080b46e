"""Text normalisation for open-loop judgement: one `normalise`, then words read through `tables`.

``normalise``: NFC, casefold, punctuation read as a space, apostrophes dropped, whitespace
collapsed. ``char_bigrams`` are the bigrams of that text with the whitespace removed ("공백을 뺀
글자 bigram"); grounded, the dismissal overlap and the Jaccard rule use them.

``read_words`` turns a description into the words the near-miss guard compares: English idioms
rewritten to one plain form, Korean particles and endings stripped by rule (never by a model),
honorific and colloquial words mapped to one word, and each word classed as an action (with its
action classes), an undoing word, a person, or content (an object, a topic).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from jarvis.agent_layer.openloop import tables as T

_APOSTROPHES = str.maketrans("", "", "'’")


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFC", text).casefold().translate(_APOSTROPHES)
    spaced = "".join(" " if unicodedata.category(c).startswith("P") else c for c in text)
    return " ".join(spaced.split())


def compact(text: str) -> str:
    return normalise(text).replace(" ", "")


def char_bigrams(text: str) -> frozenset[str]:
    squeezed = compact(text)
    if len(squeezed) == 1:
        return frozenset({squeezed})
    return frozenset(squeezed[i : i + 2] for i in range(len(squeezed) - 1))


def is_hangul(char: str) -> bool:
    return "가" <= char <= "힣"


def has_hangul(text: str) -> bool:
    return any(is_hangul(c) for c in text)


# ---- words -----------------------------------------------------------------------------------


@dataclass
class Words:
    """A description read word by word (see the module docstring)."""

    actions: dict[str, frozenset[str]] = field(default_factory=dict)  # stem → action classes
    predicate: str | None = None  # the main verb: the first action in English, the last in Korean
    undo: set[str] = field(default_factory=set)
    persons: set[str] = field(default_factory=set)
    content: list[str] = field(default_factory=list)
    squeezed: str = ""  # the text without spaces (facts left out), to find a word's pieces in


def read_words(text: str, blanked: Iterable[tuple[int, int]] = ()) -> Words:
    """The words of ``text`` with the spans in ``blanked`` (times, dates, numbers) left out."""
    nfc = unicodedata.normalize("NFC", text)
    chars = list(nfc)
    for start, end in blanked:
        chars[start:end] = [" "] * (end - start)
    kept = "".join(chars)
    names = _english_names(kept)
    plain = _rewrite_idioms(normalise(kept))
    words = Words(persons=set(names), squeezed=plain.replace(" ", ""))
    tokens = plain.split()
    if not tokens:
        return words
    if has_hangul(plain):
        _read_korean(tokens, words)
        words.predicate = next(reversed(words.actions), None)
    else:
        _read_english(tokens, names, words)
        words.predicate = next(iter(words.actions), None)
    return words


def _read_korean(tokens: list[str], words: Words) -> None:
    # What is left of a blanked time ("5시까지" → "까지") is no word; the predicate is the last
    # word that is one.
    tokens = [t for t in tokens if t not in T.KO_FILLERS and t not in T.KO_PARTICLES]
    tokens = [t for t in tokens if not t.isdigit()]
    last = len(tokens) - 1
    for i, raw in enumerate(tokens):
        if not has_hangul(raw):
            lemma = T.KO_LATIN_WORDS.get(raw) or _lemma(raw)
            _classify(T.SAME_WORDS.get(lemma, lemma), words, predicate=False)
            continue
        stem, recipient = _strip_particles(raw)
        stem = _strip_ending(stem) if i == last else _strip_connective(stem)
        stem = _known_form(stem)
        for part in _split_compound(stem):
            part = T.KO_STEM_FORMS.get(part, part)
            same = T.SAME_WORDS.get(part)
            # A mapped word is read like a written one ("반려묘" → 고양이 → 고양, as "고양이").
            mapped = [_strip_particles(w)[0] for w in same.split()] if same else [part]
            for word in mapped:
                if recipient or word.endswith(T.KO_TITLE_SUFFIX) or word in T.PERSON_WORDS:
                    # 선배님 and 선배 are one person; the title is politeness.
                    words.persons.add(word.removesuffix(T.KO_TITLE_SUFFIX) or word)
                elif word and word not in T.KO_FILLERS:
                    _classify(word, words, predicate=i == last)


def _read_english(tokens: list[str], names: set[str], words: Words) -> None:
    lemmas = [_lemma(t) for t in tokens]
    i = 0
    while i < len(lemmas):
        phrase = _phrase_at(lemmas, i)
        if phrase is not None:
            _classify(phrase, words, predicate=False)
            i += len(phrase.split())
            continue
        word = T.SAME_WORDS.get(lemmas[i], lemmas[i])
        if word in names or word in T.PERSON_WORDS:
            words.persons.add(word)
        elif word not in T.EN_STOPWORDS and not word.isdigit() and len(word) > 1:
            # An imperative description starts with its verb ("water the plants"); after an
            # undoing verb, an action word names the thing undone ("cancel the phone plan").
            if i > 0 and words.undo and not words.actions and word in _ACTION_CLASSES:
                words.content.append(word)
            else:
                _classify(word, words, predicate=i == 0)
        i += 1


def _classify(word: str, words: Words, *, predicate: bool) -> None:
    if word in _UNDO:
        words.undo.add(word)
    elif word in T.LIGHT_WORDS:
        return
    elif word in _ACTION_CLASSES:
        words.actions[word] = _ACTION_CLASSES[word]
    elif predicate:
        # An unknown verb in the predicate is its own action: "읽기" never matches "보내기".
        words.actions[word] = frozenset({f"?{word}"})
    else:
        words.content.append(word)


# ---- Korean ----------------------------------------------------------------------------------


def _strip_particles(word: str) -> tuple[str, bool]:
    """Up to two particles ("팀원들에게" → 팀원); True when one of them marks a recipient."""
    recipient = False
    for _ in range(2):
        for particle in (*T.KO_PARTICLES, "들"):
            if word.endswith(particle) and len(word) - len(particle) >= 2:
                recipient = recipient or particle in T.KO_RECIPIENT_PARTICLES
                word = word[: -len(particle)]
                break
        else:
            break
    return word, recipient


def _strip_ending(word: str) -> str:
    """The predicate's stem: the longest known stem some ending leaves ("정하기" → 정하, not
    정; "빌려주기" → 빌려주, not 빌려), else what the longest ending leaves ("세차하기" → 세차)."""
    stems = [word] + [
        word[: -len(ending)]
        for ending in T.KO_ENDINGS
        if word.endswith(ending) and len(word) > len(ending)
    ]
    known = [s for s in stems if s in _ACTION_CLASSES or s in _UNDO or s in T.KO_STEM_FORMS]
    return max(known, key=len) if known else stems[min(1, len(stems) - 1)]


def _strip_connective(word: str) -> str:
    if word in _ACTION_CLASSES or word in T.KO_STEM_FORMS:
        return word
    for ending, longest_stem in T.KO_CONNECTIVES:
        stem = word[: -len(ending)] if word.endswith(ending) else ""
        known = stem in _ACTION_CLASSES or stem in T.KO_STEM_FORMS
        if stem and known and len(stem) <= longest_stem:
            return stem
    for ending in T.KO_ADNOMINALS:
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            return word[: -len(ending)]
    return word


def _split_compound(stem: str) -> list[str]:
    """ "예약취소" → 예약, 취소; "결재받" → 결재, 받: an undoing word or a light verb that ends a
    compound is a word of its own."""
    if _known(stem):
        return [stem]
    for tail in (*_KO_UNDO, *T.KO_COMPOUND_VERBS):
        if stem.endswith(tail) and len(stem) - len(tail) >= (1 if tail in _KO_UNDO else 2):
            return [stem[: -len(tail)], tail]
    return [stem]


def _known(stem: str) -> bool:
    return stem in _ACTION_CLASSES or stem in _UNDO or stem in T.KO_STEM_FORMS


# Hangul syllables are (initial × 21 + medial) × 28 + final, from 가.
_MEDIAL_BACK = {6: 20, 14: 13, 9: 8}  # ㅕ→ㅣ (부쳐→부치), ㅝ→ㅜ (바꿔→바꾸), ㅘ→ㅗ (봐→보)
_RIEUL, _REU = 8, "르"


def _known_form(stem: str) -> str:
    """The dictionary stem of a conjugated verb ("부쳐" → 부치, "골라" → 고르, "해" → 하),
    when that stem is in the tables; else the word unchanged. Pure jamo arithmetic."""
    if not stem or _known(stem) or not is_hangul(stem[-1]):
        return stem
    code = ord(stem[-1]) - ord("가")
    initial, medial, final = code // 588, (code % 588) // 28, code % 28
    candidates = []
    if final == 0 and medial in _MEDIAL_BACK:
        back = chr(ord("가") + initial * 588 + _MEDIAL_BACK[medial] * 28)
        candidates.append(stem[:-1] + back)
    if final == 0 and stem[-1] in "라러" and len(stem) >= 2 and is_hangul(stem[-2]):
        prev = ord(stem[-2]) - ord("가")
        if prev % 28 == _RIEUL:  # 르-irregular: 골라 → 고르, 불러 → 부르
            candidates.append(stem[:-2] + chr(ord(stem[-2]) - _RIEUL) + _REU)
    if stem[-1] == "해":
        candidates.append(stem[:-1] + "하")
    return next((c for c in candidates if _known(c)), stem)


# ---- English ---------------------------------------------------------------------------------


def lemma(word: str) -> str:
    """An English word's lemma: the irregular table, else regular suffixes stripped by rule."""
    return _lemma(word)


def _lemma(word: str) -> str:
    if word in T.EN_LEMMAS:
        return T.EN_LEMMAS[word]
    if not word.isascii() or len(word) <= 3:
        return word
    for suffix, repl, min_len in (("ies", "y", 5), ("sses", "ss", 5), ("ing", "", 6),
                                  ("ed", "", 5), ("es", "", 6), ("s", "", 4)):  # fmt: skip
        if word.endswith(suffix) and len(word) >= min_len and not word.endswith("ss"):
            stem = word[: -len(suffix)] + repl
            # "dripping" → drip, "planned" → plan: a doubled last consonant is one.
            if suffix in ("ing", "ed") and len(stem) > 3 and stem[-1] == stem[-2] not in "aeiols":
                stem = stem[:-1]
            return stem
    return word


def _english_names(text: str) -> set[str]:
    """Capitalised words after the first ("send Lena the notes"): names of people."""
    found = set()
    for i, m in enumerate(re.finditer(r"[A-Za-z][A-Za-z'’]*", text)):
        word = m[0].rstrip("'’s") if m[0].endswith(("'s", "’s")) else m[0]
        if i == 0 or not word[:1].isupper() or word.isupper():
            continue
        low = word.casefold()
        if low not in T.EN_NOT_NAMES and low not in _ACTION_CLASSES:
            found.add(low)
    return found


def _rewrite_idioms(plain: str) -> str:
    for pattern, repl in _IDIOMS:
        plain = pattern.sub(repl, plain)
    return plain


def _phrase_at(lemmas: list[str], i: int) -> str | None:
    for size in (3, 2):
        phrase = " ".join(lemmas[i : i + size])
        if len(lemmas) - i >= size and (phrase in _ACTION_CLASSES or phrase in _UNDO):
            return phrase
    return None


# ---- tables, compiled once -------------------------------------------------------------------


@cache
def _compile_idioms() -> tuple[tuple[re.Pattern[str], str], ...]:
    compiled = []
    for phrase, plain in T.EN_IDIOMS:
        pattern = r"\b" + re.escape(phrase).replace(r"\{x\}", r"(\w+(?: \w+){0,2}?)") + r"\b"
        compiled.append((re.compile(pattern), plain.replace("{x}", r"\1")))
    return tuple(compiled)


def _action_classes() -> dict[str, frozenset[str]]:
    classes: dict[str, set[str]] = {}
    for name, words in T.ACTIONS.items():
        for word in words:
            key = word if has_hangul(word) or " " in word else _lemma(word)
            classes.setdefault(key, set()).add(name)
    return {word: frozenset(names) for word, names in classes.items()}


_IDIOMS = _compile_idioms()
_ACTION_CLASSES = _action_classes()
_UNDO = frozenset(w if has_hangul(w) or " " in w else _lemma(w) for w in T.UNDO_WORDS)
_KO_UNDO = tuple(sorted((w for w in T.UNDO_WORDS if has_hangul(w)), key=len, reverse=True))
