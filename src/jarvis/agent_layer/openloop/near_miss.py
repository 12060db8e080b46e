"""The field-wise near-miss guard: two descriptions compared field by field.

Embeddings score "보고서 3시까지" vs "보고서 5시까지" 0.97 and a restatement 0.91, so no
cosine can tell them apart; fields can. Each field a description states is compared with the
other side's:

| field     | read from                                 | differs when                        |
|-----------|-------------------------------------------|-------------------------------------|
| time      | 3시 반, 15:00, 3pm, 정오, half past two   | another minute, or another hour     |
| half      | 오전/오후, 아침/저녁, morning, am/pm      | am vs pm                            |
| day       | 오늘/내일/낼/모레/글피, weekdays, dates    | the resolved dates differ           |
| count     | 3부, 4명, 100장, two copies, Q3           | same unit, another number           |
| amount    | 15만원, 10만 원, $500, €120               | another sum                         |
| recipient | 팀장님께, 민수한테, family words, names   | no person in common                 |
| action    | `tables.ACTIONS` (작성/검토, 받기/보내기) | no action class in common           |
| undo      | `tables.UNDO_WORDS` (취소, 해지, cancel)  | on one side only                    |
| negation  | 안/못/않/말기, not/never/don't            | on one side only                    |
| opposite  | `tables.OPPOSITES` (켜/끄, to/from)       | a word against its opposite         |
| object    | the remaining words (회의록, 견적서)      | each side has a word the other lacks|

A field stated on one side only is elaboration ("보고서" vs "내일 보고서"), not a conflict.
A *hard* difference keeps the two apart whatever the cosine. Two differences are *soft*: an
object swap in a sentence that shares nothing else (a full rewording) and a verb the tables do
not know; they stop the text rules, and only a calibrated embedder's cosine may merge them.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal

from pydantic import BaseModel

from jarvis.agent_layer.openloop import tables as T
from jarvis.agent_layer.openloop.facts import Facts, read_facts
from jarvis.agent_layer.openloop.normalise import (
    Words,
    has_hangul,
    lemma,
    normalise,
    read_words,
)

FieldName = Literal[
    "time",
    "half",
    "day",
    "count",
    "amount",
    "recipient",
    "action",
    "undo",
    "negation",
    "opposite",
    "object",
]
Verdict = Literal["agree", "differ", "one_sided"]


class FieldCheck(BaseModel):
    """One field of the guard: what each side states and whether they agree."""

    name: FieldName
    verdict: Verdict
    a: list[str]
    b: list[str]
    shared: list[str] = []  # object words both sides name
    hard: bool = True  # a hard difference is never merged; a soft one only by the cosine


@dataclass
class Reading:
    """A description read once: its facts, its words and whether it is negated."""

    facts: Facts
    words: Words
    negated: bool
    terms: frozenset[str] = frozenset()  # the words the opposites table is read against


def read(text: str, today: date | None = None) -> Reading:
    facts = read_facts(text, today)
    text = unicodedata.normalize("NFC", text)
    # "잊지 말고" / "don't forget to" remind; they name nothing.
    reminders = [m.span() for m in REMINDER_RE.finditer(text)]
    words = read_words(text, [*facts.spans, *reminders])
    return Reading(facts, words, negated(text), _terms(text, words))


def _terms(text: str, words: Words) -> frozenset[str]:
    """Korean: the stems the words were read into; English: every token's lemma (function words
    included: "to"/"from", "on"/"off" say the direction) and each two-word phrase."""
    plain = normalise(text)
    if has_hangul(plain):
        return frozenset({*words.actions, *words.content, *words.undo})
    lemmas = [lemma(t) for t in plain.split()]
    return frozenset({*lemmas, *(" ".join(p) for p in itertools.pairwise(lemmas))})


def _opposite_field(a: Reading, b: Reading) -> FieldCheck | None:
    """A word on one side only whose opposite is on the other side only."""
    only_a, only_b = a.terms - b.terms, b.terms - a.terms
    pairs = [(x, y) for x, y in _OPPOSITES if x in only_a and y in only_b]
    if not pairs:
        return None
    return FieldCheck(
        name="opposite", verdict="differ", a=[x for x, _ in pairs], b=[y for _, y in pairs]
    )


_OPPOSITES = [*T.OPPOSITES, *((y, x) for x, y in T.OPPOSITES)]


def compare(a: Reading, b: Reading) -> list[FieldCheck]:
    """Every field at least one side states, in the order of the module's table."""
    fa, fb = a.facts, b.facts
    checks = [
        _field(
            "time",
            _opt(fa.time.label() if fa.time else None),
            _opt(fb.time.label() if fb.time else None),
            fa.time is not None and fb.time is not None and fa.time.agrees(fb.time),
        ),
        _field("half", _opt(fa.half), _opt(fb.half), fa.half == fb.half),
        _field("day", _days(fa), _days(fb), fa.day == fb.day),
        *_numbers(fa, fb),
        _overlap_field("recipient", a.words.persons, b.words.persons),
        _action_field(a.words, b.words),
        _field("undo", sorted(a.words.undo), sorted(b.words.undo), True, one_side_differs=True),
        _field("negation", ["not"] * a.negated, ["not"] * b.negated, True, one_side_differs=True),
        _opposite_field(a, b),
        _object_field(a.words, b.words),
    ]
    return [c for c in checks if c is not None]


def hard_conflicts(checks: Iterable[FieldCheck]) -> list[FieldCheck]:
    return [c for c in checks if c.verdict == "differ" and c.hard]


def soft_conflicts(checks: Iterable[FieldCheck]) -> list[FieldCheck]:
    return [c for c in checks if c.verdict == "differ" and not c.hard]


def _opt(value: str | None) -> list[str]:
    return [value] if value else []


def _field(
    name: FieldName, a: list[str], b: list[str], agree: bool, *, one_side_differs: bool = False
) -> FieldCheck | None:
    if not a and not b:
        return None
    if not a or not b:
        verdict: Verdict = "differ" if one_side_differs else "one_sided"
    else:
        verdict = "agree" if agree else "differ"
    return FieldCheck(name=name, verdict=verdict, a=a, b=b)


def _days(facts: Facts) -> list[str]:
    if facts.day is None:
        return []
    if len(set(facts.day)) == 1:
        return [f"{facts.day_text} ({facts.day[0].isoformat()})"]
    return [facts.day_text]


def _numbers(fa: Facts, fb: Facts) -> list[FieldCheck | None]:
    out: list[FieldCheck | None] = []
    names: tuple[FieldName, FieldName] = ("count", "amount")
    for name in names:
        kinds = [k for k in {*fa.numbers, *fb.numbers} if (k == "money") == (name == "amount")]
        if not kinds:
            continue
        a = sorted(f"{v} {_unit(k)}".strip() for k in kinds for v in fa.numbers.get(k, ()))
        b = sorted(f"{v} {_unit(k)}".strip() for k in kinds for v in fb.numbers.get(k, ()))
        both = [k for k in kinds if k in fa.numbers and k in fb.numbers]
        agree = all(fa.numbers[k] == fb.numbers[k] for k in both)
        check = _field(name, a, b, agree)
        if check is not None and not both and a and b:
            check.verdict = "one_sided"  # "3부" vs "4명": two kinds of count, no conflict
        out.append(check)
    return out


def _unit(kind: str) -> str:
    return "" if kind == "money" else kind.removeprefix("n:")


def _overlap_field(name: FieldName, a: set[str], b: set[str]) -> FieldCheck | None:
    return _field(name, sorted(a), sorted(b), bool(a & b))


def _action_field(a: Words, b: Words) -> FieldCheck | None:
    """The main verbs agree when either side's main verb is among the other side's actions
    ("전화 드리기" vs "전화하기"); a noun that happens to name an action ("the lease") does
    not make "review the lease" and "sign the lease" one promise."""
    if not a.actions or not b.actions:
        return _field("action", sorted(a.actions), sorted(b.actions), True)
    every_a, every_b = _classes(a, a.actions), _classes(b, b.actions)
    main_a, main_b = _classes(a, [a.predicate]), _classes(b, [b.predicate])
    agree = bool(main_a & every_b or main_b & every_a)
    check = _field("action", [_main_first(a)], [_main_first(b)], agree)
    if check is not None and check.verdict == "differ":
        # A verb the tables do not know ("?끊") cannot be called another action for sure.
        check.hard = not any(c.startswith("?") for c in main_a | main_b)
    return check


def _classes(words: Words, stems: Iterable[str | None]) -> set[str]:
    return {c for s in stems if s is not None for c in words.actions.get(s, ())}


def _main_first(words: Words) -> str:
    others = [s for s in words.actions if s != words.predicate]
    return "+".join([words.predicate or "", *others]).strip("+")


def _object_field(a: Words, b: Words) -> FieldCheck | None:
    """Each side's words of substance the other side lacks. A person on one side against a
    thing on the other is a swap too ("팀원들에게" vs "고객사에": only 에게 marks a recipient),
    and so is an action word that is not the main verb ("설치 기사" vs "수거 기사")."""
    if not a.content and not b.content:
        return None
    words_a, words_b = _substance(a), _substance(b)
    only_a = [w for w in words_a if not _covered(w, b, a)]
    only_b = [w for w in words_b if not _covered(w, a, b)]
    shared = list(dict.fromkeys(w for w in [*words_a, *words_b] if w not in only_a + only_b))
    verdict: Verdict = "agree"
    if only_a or only_b:
        verdict = "differ" if only_a and only_b else "one_sided"
    # The same sentence with one word swapped is a near miss; a full rewording is unknown.
    classes_a = set().union(*a.actions.values()) if a.actions else set()
    classes_b = set().union(*b.actions.values()) if b.actions else set()
    template = bool(
        [w for w in shared if w in a.content or w in b.content]
        or (a.persons & b.persons)
        or (classes_a & classes_b)
    )
    return FieldCheck(
        name="object", verdict=verdict, a=only_a, b=only_b, shared=shared, hard=template
    )


def _substance(words: Words) -> list[str]:
    helpers = [s for s in words.actions if s != words.predicate and not s.startswith("?")]
    return [*words.content, *sorted(words.persons), *helpers]


def _vocabulary(words: Words) -> list[str]:
    return [*words.content, *words.persons, *words.actions, *words.undo]


def _covered(word: str, other: Words, own: Words) -> bool:
    """Hangul: every character bigram of the word is in the other side's text, spaces and
    particles included ("배포결과" covers "배포 결과"; "회의 자료" does not cover "회의록").
    Latin: the same word, or one holds the other (5+ letters: "electric"/"electricity")."""
    others = _vocabulary(other)
    if word in others:
        return True
    # An action word is covered by any action of the same class on the other side.
    if word in own.actions and own.actions[word] & set().union(set(), *other.actions.values()):
        return True
    if has_hangul(word):
        text = other.squeezed
        if len(word) == 1:
            return word in text
        return all(word[i : i + 2] in text for i in range(len(word) - 1))
    return any(min(len(word), len(o)) >= 5 and (word in o or o in word) for o in others)


# ---- negation ----------------------------------------------------------------------------------

_NEGATION_RE = re.compile(
    r"(?<![가-힣])(?:안|못)\s|(?<!까)지\s*(?:않|말|마)(?!감)|않기|말기"
    r"|\b(?:not|never|dont|doesnt|didnt|wont|cant|cannot)\b"
)
# "잊지 말고 보내기" / "don't forget to send" are reminders: neither negation nor dismissal.
REMINDER_RE = re.compile(
    r"(?:잊|빠뜨리|놓치|까먹)지\s*(?:말|마)\S*|\bdo(?:n'?t|\s+not)\s+forget\b|\bnever\s+forget\b",
    re.IGNORECASE,
)


def negated(text: str) -> bool:
    text = unicodedata.normalize("NFC", text)
    return bool(_NEGATION_RE.search(normalise(REMINDER_RE.sub(" ", text))))
