"""Could these words hold an AGENDA item? A cheap pre-filter in front of the AGENDA judge.

The judge is a second model call on every turn. When no open loop is shown (nothing the words
could close) and the words carry no cue of something to do later, the judge has nothing to find:
the call is skipped. The cues are wide on purpose (a miss loses a promise, a false alarm costs one
judge call), KO and EN:

- time ahead: "tomorrow", "by friday", "at 3pm", "in 2 hours", "내일", "금요일까지", "3시";
- commitment: "I'll", "I need to", "have to", "remind me", "don't forget", "할게", "해야 해",
  "하겠습니다", "할 거야", "하기로", "잊지 말고", "챙겨";
- a to-do written as one: an English clause that opens with an action verb of the AGENDA's
  tables ("pay the electricity bill"), a Korean verbal noun of an action ("보고서 검토", "보내기").

Measured on the labelled sets in `tests/unit/openloop/test_cues.py`: every promise and to-do
passes (the loop pairs' descriptions, the promises the tests judge); see docs/openloop.md for the
share of ordinary prompts that skip the call.
"""

from __future__ import annotations

import re

from jarvis.agent_layer.openloop import tables as T

_EN_WEEKDAYS = r"mon|tues?|wed|thu(?:rs?)?|fri|sat|sun"
_EN_MONTHS = r"jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec"
_EN_TIME = (
    r"\b(?:tomorrow|tmrw|tmr|tonight|today|tonite|later|soon|next|upcoming|weekend|weekday"
    r"|morning|afternoon|evening|night|noon|midnight|eod|eow|asap|deadline|due|overdue"
    r"|by|until|till|before|after|within|o'?clock|half\s+past|quarter\s+(?:past|to)"
    rf"|(?:{_EN_WEEKDAYS})[a-z]*|(?:{_EN_MONTHS})[a-z]*"
    r"|this\s+(?:week|month|year)|end\s+of|every|daily|weekly|monthly|yearly)\b"
    r"|\d\s*(?:am|pm|a\.m\.|p\.m\.|h\b)|\d:\d\d|\b\d{1,2}/\d{1,2}\b|\b\d+(?:st|nd|rd|th)\b"
    r"|\b(?:in|within)\s+(?:\d+|an?|one|two|three|few|a\s+few|a\s+couple\s+of)\s*"
    r"(?:sec|min|hour|hr|h\b|day|week|month|year|bit|while)|\bat\s+\d"
)
_EN_COMMIT = (
    r"\b(?:i'?ll|i\s+will|we'?ll|we\s+will|shall|gonna|going\s+to|gotta|got\s+to|need|needs"
    r"|needed|have\s+to|has\s+to|had\s+to|must|ought|(?:i|we)\s+should|should\s+(?:i|we)\s+\w+\s+"
    r"(?:it|this|that|them)\b|want\s+to|wanna|plan|planning|promise|promised|remind|reminder"
    r"|remember|forget|forgot|make\s+sure|to-?do|todo|appointment|meeting|schedule|scheduled"
    r"|agenda|errand|pending|owe|committed|let\s+me|let's|lets)\b"
)
_EN_CUES = re.compile(f"{_EN_TIME}|{_EN_COMMIT}", re.IGNORECASE)
# The same without IGNORECASE, for lower-cased ASCII text (where the two agree exactly; the
# pattern is all lower case): IGNORECASE makes Python's `re` several times slower.
_EN_CUES_LOWER = re.compile(f"{_EN_TIME}|{_EN_COMMIT}")

_KO_TIME = (
    r"내일|낼|모레|글피|오늘|이따|있다가|나중|다음|담주|담달|이번\s*주|이번\s*달|주말|평일|요일|[월화수목금토일]욜"
    r"|까지|전에|전까지|후에|뒤에|안에|내로|이내|아침|점심|저녁|밤|새벽|오전|오후|정오|자정|낮"
    r"|\d\s*(?:시|분|일|월|주)|[한두세네섯곱덟홉열]\s*시|반\s*에|마감|기한|일정|약속|예약|스케줄|매일|매주|매달"
)
_KO_COMMIT = (
    r"(?<!모르)(?<!좋)(?<!같)(?<!렇)(?<!알)겠|야\s*(?:해|돼|되|하|지|겠|함|할)|기로|려고|려구|잊지|잊어|까먹|기억"
    r"|챙기|챙겨|리마인드|알림|알려\s*줘|해\s*[두둬놓놔]|하자|하려|할\s*일|숙제|과제"
)
_KO_CUES = re.compile(f"{_KO_TIME}|{_KO_COMMIT}")
# "할게", "보낼께", "할 거야", "갈 예정": a syllable ending in ㄹ before these (checked in code).
_KO_AFTER_RIEUL = re.compile(r"([가-힣])\s?(?:게|께|거|꺼|예정|계획)")
# A Korean word that ends like a to-do: "보내기", "장보기", "검토하기".
_KO_TODO_END = re.compile(r"[가-힣]기(?:\s|$|[.!?,])")


def _en_action_words() -> frozenset[str]:
    """English action verbs of the AGENDA's tables: each phrase's first word ("pick" up)."""
    phrases = [p for group in T.ACTIONS.values() for p in group] + [*T.UNDO_WORDS, *T.TODO_VERBS]
    return frozenset(p.split()[0] for p in phrases if p.isascii())


def _ko_action_nouns() -> tuple[str, ...]:
    """Korean action stems of two syllables or more ("검토", "제출", "보내"): one syllable
    ("주", "사") is part of too many words to say anything."""
    phrases = [p for group in T.ACTIONS.values() for p in group] + [*T.UNDO_WORDS, *T.TODO_VERBS]
    stems = {p for p in phrases if not p.isascii()}
    return tuple(sorted(s for s in stems if len(s) >= 2 and " " not in s))


_EN_ACTIONS = _en_action_words()
_KO_ACTIONS = re.compile("|".join(_ko_action_nouns()))
_CLAUSE = re.compile(r"[^.!?;:,\n。！？]+")
_EN_DETERMINERS = frozenset({"the", "a", "an", "my", "our", "some", "his", "her", "their"})
_EN_OPENERS = frozenset({"and", "also", "then", "please", "pls", "plz", "oh", "ok", "okay", "so"})


def may_hold_loop(text: str) -> bool:
    """True when the words carry any cue of something to do later (see the module)."""
    if _en_cue(text) or _KO_CUES.search(text) or _KO_TODO_END.search(text):
        return True
    if _KO_ACTIONS.search(text):
        return True
    if any(_ends_in_rieul(m[1]) for m in _KO_AFTER_RIEUL.finditer(text)):
        return True
    return any(_opens_with_action(clause) for clause in _CLAUSE.findall(text.lower()))


def _en_cue(text: str) -> bool:
    if text.isascii():
        return _EN_CUES_LOWER.search(text.lower()) is not None
    return _EN_CUES.search(text) is not None


def _opens_with_action(clause: str) -> bool:
    words = [w.strip("\"'()[]") for w in clause.split()]
    while words and words[0] in _EN_OPENERS:
        words = words[1:]
    if (len(words) > 1 and words[0] in ("don't", "dont")) or words[:2] == ["do", "not"]:
        return True  # "don't tell Jake about the party"
    if len(words) > 1 and words[0] == "do" and words[1] in _EN_DETERMINERS:
        return True  # "do the laundry"
    return bool(words) and words[0] in _EN_ACTIONS


def _ends_in_rieul(syllable: str) -> bool:
    """A composed Hangul syllable whose final consonant is ㄹ ("할", "보낼")."""
    return (ord(syllable) - 0xAC00) % 28 == 8
