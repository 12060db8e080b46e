"""Semantic memory (seed 004: long-term memory holds semantic, episodic and procedural items):
facts the person states, kept apart from turn episodes. Pure rules, no model call.

A sentence of the person's becomes a semantic item only if

- the user model's guard passes it (`core.user_model.check_statement`: first person, not
  hypothetical, not a question, not quoted, not about someone else, not a joke);
- it is a statement, not a request ("내 메일 정리해줘", "remind me …"), a plan or duty ("I need
  to …", "내일 할 거야" — open loops keep those) or a passing state ("오늘 피곤해", "I'm tired
  today");
- it carries at least two content words and at most `STATEMENT_MAX` characters.

Against what is already kept (`plan`): the same words again are not written twice; a statement
about the same thing as a kept one — the same *topic* ("my car is …", "내 차는 …", "I live in …",
"…에 살아") — replaces it: the person corrected it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from jarvis.core.user_model.extract import sentences
from jarvis.core.user_model.facts import EVIDENCE_MAX
from jarvis.core.user_model.guard import check_statement
from jarvis.memory.recall_rules import content_words, normalized

STATEMENT_MAX = EVIDENCE_MAX
MIN_CONTENT_WORDS = 2


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


_REQUEST = _any(
    r"^(please|can you|could you|would you|will you|remind me|tell me|show me|help me|let me|"
    r"let'?s|find|send|search|look up|open|write|make|create|set|add|delete|remove|check|list|"
    r"give|book|schedule|call|email|read|run|explain|summari[sz]e|translate|remember|note)\b",
    r"\b(i want you to|i need you to|i'?d like you to)\b",
    r"(줘|줘요|주세요|주실래요|줄래|줄래요|하자|해라|보자|봐줘|부탁해|부탁합니다|부탁드려요)"
    r"\s*[.!~]*$",
    r"(기억해|알려|찾아|보내|정리해|만들어|적어)\s*(줘|둬|놔|주세요|줄래)",
)
_PLAN = _any(
    r"\b(i need to|i have to|i must|i'?ll|i will|i'?m going to|i am going to|gonna|i should|"
    r"i plan to|i'?m planning|i want to|i'?d like to)\b",
    r"해야|할\s?거|할게|하려고|할\s?예정|할래|갈\s?거|갈게|하고\s?싶",
)
_PASSING = _any(
    r"\b(today|tonight|right now|this morning|this afternoon|this evening|yesterday|tomorrow)\b",
    r"오늘|지금(?!은)|방금|아까|어제|내일|이따|이번\s?주",  # "지금은 …에 살아" is a correction
)

# Topics: a statement about the same topic as a kept one replaces it (one current value).
_LEAD_EN = re.compile(r"^(?:(?:actually|no|now|well|so|oh|and|but|also|by the way)[,\s]+)+")
_LEAD_KO = re.compile(r"^(?:(?:아니|아니요|아뇨|사실|정정|참|그리고|근데|이제)[,\s]+)+")
_MY_TOPIC = re.compile(
    r"^my ((?:[a-z0-9'-]+ ){0,3}?[a-z0-9'-]+)(?: (?:is|are|was|were|has been|have been)\b|'s\b)"
)
_I_VERB = re.compile(
    r"^i(?:'m| am)? (?:now |still |currently |no longer |don'?t |do not |moved |actually )*"
    r"(live|work|study|stay|moved)(?:s|ing|ed)? (in|at|for|to)\b"
)
_KO_NOUN = r"[가-힣A-Za-z0-9]{1,12}?"
_KO_MY_TOPIC = re.compile(rf"^(?:내|제|나의|저의)\s?({_KO_NOUN}(?: {_KO_NOUN})??)(?:은|는|이|가)\s")
_KO_PLACE = (
    ("lives", _any(r"(에|에서)\s?(살아|살고|삽니다|살아요|살아\s?요)", r"(으로|로)\s?이사")),
    ("works", _any(r"(에서|에)\s?(일해|일하고|일합니다|근무)", r"회사는\s")),
    ("studies", _any(r"(에서|에)\s?공부하고", r"학교는\s")),
)
_EN_VERB_TOPIC = {"live": "lives", "stay": "lives", "moved": "lives", "work": "works"}


def is_statement(sentence: str) -> bool:
    """Whether this one sentence may become a semantic item (see the module docstring)."""
    text = unicodedata.normalize("NFC", sentence).strip()
    if not text or len(text) > STATEMENT_MAX:
        return False
    if not check_statement(text).fact:
        return False
    if _REQUEST.search(text) or _PLAN.search(text) or _PASSING.search(text):
        return False
    return len(content_words(text)) >= MIN_CONTENT_WORDS


def statements(said: str) -> list[str]:
    """The person's sentences that are facts about them, in order, each once."""
    found: list[str] = []
    seen: set[str] = set()
    for sentence in sentences(said):
        key = normalized(sentence)
        if key not in seen and is_statement(sentence):
            seen.add(key)
            found.append(sentence)
    return found


def topic(statement: str) -> str | None:
    """What the statement is about when it holds one current value ("my car", "lives"), else
    None (likes, skills and the rest can all be true at once)."""
    low = unicodedata.normalize("NFC", statement).casefold().strip()
    en = _LEAD_EN.sub("", low)
    if match := _MY_TOPIC.match(en):
        return f"my {match.group(1)}"
    if match := _I_VERB.match(en):
        verb = match.group(1)
        return _EN_VERB_TOPIC.get(verb, f"{verb} {match.group(2)}")
    ko = _LEAD_KO.sub("", low)
    if match := _KO_MY_TOPIC.match(ko):
        return f"my {match.group(1)}"
    for name, pattern in _KO_PLACE:
        if pattern.search(ko):
            return name
    return None


@dataclass(frozen=True)
class Kept:
    """A semantic item already in memory (id and text)."""

    id: str
    text: str


@dataclass
class Plan:
    """What one turn's statements change: new texts to add, kept ids they replace."""

    add: list[str] = field(default_factory=list)
    replace: list[Kept] = field(default_factory=list)
    repeated: list[Kept] = field(default_factory=list)


def plan(kept: list[Kept], said: list[str]) -> Plan:
    """Dedupe and corrections (pure): the same words are kept once; a statement on the topic of
    a kept one replaces it. `kept` is newest first."""
    out = Plan()
    current = list(kept)
    for text in said:
        words = normalized(text)
        same = next((k for k in current if normalized(k.text) == words), None)
        if same is not None:
            out.repeated.append(same)
            continue
        subject = topic(text)
        if subject is not None:
            old = [k for k in current if topic(k.text) == subject]
            out.replace.extend(k for k in old if k.id)
            out.add = [t for t in out.add if all(t != k.text for k in old if not k.id)]
            current = [k for k in current if k not in old]
        out.add.append(text)
        current.insert(0, Kept("", text))
    return out
