"""Proposals from the person's own words by pattern (no model call; KO+EN).

The patterns only propose: every proposal still goes through the guard and the update rules in
`facts.py`. A model's proposals (when one is wired) take the same path.
"""

from __future__ import annotations

import re
import unicodedata

from jarvis.core.user_model.facts import Proposal

_SPLIT = re.compile(r"(?<=[.!?。？！])\s+|\n+")
_END = r"\s*[.!~]*$"
_KO_WORDS = r"(?P<v>[가-힣A-Za-z0-9+#. ]{2,40}?)"  # a short Korean/ASCII phrase, the value
_CLOCK = r"\d{1,2}(?::\d\d)? ?(?:am|pm)?"
_KO_IS = r"(?:이에요|예요|입니다|이야|야|임|이다)"
_ROLES = (
    r"(?:개발자|엔지니어|디자이너|학생|대학원생|연구원|기획자|매니저|교사|의사|간호사|변호사|회계사|"
    r"작가|기자|데이터\s?분석가|데이터\s?과학자|PM|PO|CTO|CEO|프리랜서)"
)
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("name", re.compile(rf"(?:제|내)\s?이름은\s+(?P<v>[^\s.!?]{{1,20}}?){_KO_IS}?{_END}")),
    ("name", re.compile(r"\bmy name is (?P<v>[A-Za-z][\w'-]{0,30}(?: [A-Z][\w'-]{0,30})?)", re.I)),
    ("name", re.compile(r"\bcall me (?P<v>[A-Za-z][\w'-]{0,30})", re.I)),
    (
        "role",
        re.compile(rf"(?:저는|전|나는|난)?\s?(?P<v>[가-힣A-Za-z ]{{0,20}}{_ROLES}){_KO_IS}{_END}"),
    ),
    ("role", re.compile(rf"직업은\s+(?P<v>[^.!?]{{1,30}}?){_KO_IS}?{_END}")),
    ("role", re.compile(r"\bi work as an? (?P<v>[a-z][a-z -]{1,40}?)(?: at .*)?[.!]?$", re.I)),
    (
        "role",
        re.compile(
            r"\bi'?m an? (?P<v>[a-z -]{0,30}(?:engineer|developer|designer|student|researcher|"
            r"manager|teacher|doctor|nurse|lawyer|writer|scientist|analyst|freelancer))\b",
            re.I,
        ),
    ),
    ("timezone", re.compile(r"\bmy time ?zone is (?P<v>[A-Za-z_/+\-0-9]{2,40})", re.I)),
    ("timezone", re.compile(rf"시간대는\s+(?P<v>[A-Za-z_/+\-0-9]{{2,40}}){_KO_IS}?{_END}")),
    (
        "language",
        re.compile(r"\bi (?:prefer|speak) (?P<v>korean|english|japanese|chinese)\b", re.I),
    ),
    (
        "communication_style",
        re.compile(r"\bi prefer (?P<v>(?:short|brief|detailed|long|concise)[a-z ]{0,30})", re.I),
    ),
    (
        "working_hours",
        re.compile(
            rf"\bi work (?:from )?(?P<v>{_CLOCK} to {_CLOCK})",
            re.I,
        ),
    ),
    ("working_hours", re.compile(r"(?P<v>\d{1,2}시(?:부터)?\s?\d{1,2}시까지)\s?일해")),
    (
        "interests",
        re.compile(r"\bi(?: really)? (?:like|love|enjoy) (?P<v>[\w +#-]{2,40}?)[.!]?$", re.I),
    ),
    ("interests", re.compile(r"\bi'?m interested in (?P<v>[\w +#-]{2,40}?)[.!]?$", re.I)),
    (
        "interests",
        re.compile(
            rf"(?P<v>[가-힣A-Za-z0-9+# ]{{2,30}}?)(?:을|를)?\s?(?:좋아해|좋아합니다|좋아해요){_END}"
        ),
    ),
    (
        "interests",
        re.compile(_KO_WORDS + rf"에\s?관심(?:이)?\s?(?:있어|많아|있습니다|있어요){_END}"),
    ),
    (
        "dislikes",
        re.compile(
            r"\bi (?:hate|dislike|don'?t like|can'?t stand) (?P<v>[\w +#-]{2,40}?)[.!]?$", re.I
        ),
    ),
    (
        "dislikes",
        re.compile(_KO_WORDS + rf"(?:은|는|이|가)?\s?(?:싫어|싫어해|싫어요|싫습니다){_END}"),
    ),
    ("projects", re.compile(r"\bi'?m (?:working on|building) (?P<v>[\w +#.-]{2,50}?)[.!]?$", re.I)),
    (
        "projects",
        re.compile(
            _KO_WORDS + rf"\s?(?:프로젝트를?|작업을?)\s?(?:하고 있어|진행 중|하는 중){_END}"
        ),
    ),
    (
        "expertise",
        re.compile(
            r"\bi'?m (?:an expert in|good at|experienced (?:in|with)) (?P<v>[\w +#-]{2,40}?)[.!]?$",
            re.I,
        ),
    ),
    ("expertise", re.compile(rf"(?P<v>[가-힣A-Za-z0-9+# ]{{2,30}}?)\s?전문(?:가)?{_KO_IS}{_END}")),
]


# Words in front of a value that are not part of it ("저는 이제 PM이에요" → PM).
_LEAD = re.compile(r"^(?:(?:저는|전|나는|난|이제|지금은|요즘은?|현재|원래)\s+)+")


# Words every pattern above (and in `_INFERRED`) needs somewhere in its match: text without any
# of them cannot propose anything, and most turns say none, so the patterns (which backtrack
# over every position) are skipped. `test_extract_gate.py` checks that no match is lost.
_MAY_PROPOSE = re.compile(
    r"이름은|직업은|시간대는|시까지|좋아|관심|싫|프로젝트|작업|전문|개발|코딩|프로그래밍|"
    rf"{_KO_IS}|(?-i:{_ROLES})|my name is|call me|i work |i'?m an? |time ?zone is|"
    r"i prefer |i speak |"
    r"i(?: really)? (?:like|love|enjoy) |interested in |"
    r"i (?:hate|dislike|don'?t like|can'?t stand) |working on |building |"
    r"an expert in |good at |experienced |been ",
    re.I,
)


def may_propose(text: str) -> bool:
    """False when no pattern can match anywhere in `text` (a necessary condition only)."""
    return _MAY_PROPOSE.search(unicodedata.normalize("NFC", text)) is not None


def sentences(text: str) -> list[str]:
    norm = unicodedata.normalize("NFC", text)
    return [part.strip() for part in _SPLIT.split(norm) if part.strip()]


# Read between the lines (only with `user_model.infer`): what someone works in day to day.
_INFERRED: list[tuple[str, re.Pattern[str]]] = [
    (
        "expertise",
        re.compile(
            r"\bi(?:'ve| have) been (?:writing|coding|programming|working) (?:in|with) "
            r"(?P<v>[A-Za-z][\w+#.-]{0,20})",
            re.I,
        ),
    ),
    (
        "expertise",
        re.compile(
            r"(?P<v>[A-Za-z][\w+#.-]{0,20}|[가-힣]{2,10}?)(?:으로|로)\s?(?:개발|코딩|프로그래밍)"
            r"(?:하고\s?있|해요|합니다|중)"
        ),
    ),
]


def infer(text: str) -> list[Proposal]:
    """Inferred proposals (tentative facts if the guard and the rules take them)."""
    found: list[Proposal] = []
    for sentence in sentences(text):
        for field, pattern in _INFERRED:
            match = pattern.search(sentence)
            if match is not None:
                found.append(Proposal(field, match.group("v"), sentence, inferred=True))
                break
    return found


def propose(text: str, *, inferring: bool = False) -> list[Proposal]:
    """Every (field, value, sentence) the patterns find in the person's words (and, when
    `inferring`, what they suggest)."""
    if not may_propose(text):
        return []
    found: list[Proposal] = infer(text) if inferring else []
    for sentence in sentences(text):
        for field, pattern in _PATTERNS:
            match = pattern.search(sentence)
            if match is None:
                continue
            value = match.group("v").strip(" .,!~")
            value = _LEAD.sub("", value)
            if value:
                found.append(Proposal(field, value, sentence))
                break  # one field per sentence
    return found
