"""Approvals answered in words: the pure rules (seed 000 "음성 승인은 거부 쪽으로 기운다").

Misreading costs are lopsided: a refusal heard as consent runs a dangerous command, consent heard
as a refusal costs one more sentence. So, in order:

1. any negation (or hesitation: "잠깐", "wait") → DENY, nothing is classified;
2. a reply made only of consent words → ALLOW (ALWAYS only with an explicit "from now on");
3. anything else goes to a classifier model, whose answer is trusted only when it is a clear
   allow (`parse_label`, `combine`); an unreadable or failed answer stays UNCLEAR (pending).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

WordsDecision = Literal["allow", "always", "deny", "unclear"]
WordsStage = Literal["empty", "negation", "keyword", "model"]

_TOKEN = re.compile(r"[0-9a-z'\u3131-\u318e\uac00-\ud7a3]+")

# Korean: whole tokens, token starts, and fragments anywhere in a token.
_KO_NEGATION_TOKENS = frozenset(
    {"안", "못", "노", "노노", "마", "마라", "마요", "마세요", "말", "말아", "말어", "no"}
)
_KO_NEGATION_STARTS = (
    "안돼", "안되", "안된", "안해", "안하", "안할", "안함", "안됨", "안줘", "안써",
    "못해", "못하", "못할", "없어", "없이", "필요없",
)  # fmt: skip
_KO_NEGATION_PARTS = (
    "않", "말고", "말아", "말라", "말자", "말것", "지마", "하지말", "아니", "아냐", "아뇨",
    "싫", "거부", "거절", "취소", "중지", "중단", "멈춰", "멈추", "멈춤", "그만", "잠깐",
    "잠시", "기다려", "기다리", "대기", "금지", "절대", "스톱", "보류", "나중에", "위험",
    "빼고", "빼줘", "제외",
)  # fmt: skip
_EN_NEGATIONS = frozenset(
    {
        "no", "n", "nope", "nah", "not", "never", "dont", "don't", "stop", "wait", "hold",
        "cancel", "deny", "denied", "reject", "refuse", "abort", "halt", "later", "without",
        "nothing", "neither", "nor", "none", "pause", "hang", "careful", "unsafe", "risky",
    }
)  # fmt: skip
_ALWAYS_PHRASES = (
    "앞으로", "이제부터", "다음부터", "다음에도", "항상", "언제나", "매번",
    "from now on", "always", "going forward", "every time", "in future", "in the future",
)  # fmt: skip
# Words that say yes (or only soften a yes); a reply made of these alone is a clear allow.
_CONSENT_TOKENS = frozenset(
    {
        "응", "어", "엉", "웅", "네", "넵", "넹", "예", "옙", "그래", "그래요", "그럼", "좋아",
        "좋아요", "좋습니다", "좋다", "좋지", "오케이", "오키", "콜", "고", "고고", "ok", "okay",
        "okey", "k", "kk", "yes", "y", "yep", "yeah", "yup", "ya", "sure", "go", "ahead",
        "do", "it", "run", "proceed", "approve", "approved", "allow", "allowed", "fine",
        "alright", "please", "now", "right", "away", "this", "confirm",
        "confirmed", "continue", "yess",
        "계속", "그냥", "바로", "지금", "빨리", "일단", "이거", "그거", "그대로", "진짜", "부탁해",
        "부탁해요", "줘", "줘요", "주세요", "그렇게", "승인", "허용", "확인", "당연", "당연하지",
        "물론", "물론이지",
    }
)  # fmt: skip
_CONSENT_PATTERN = re.compile(
    r"^(?:ㅇ+|ㄱ+|ㅇㅋ+|"
    r"(?:실행|진행|허용|승인|허락|시작)(?:해|하|시켜|합니다|할게|하세요|해도|해줘|해요|해라|해봐)?\w*|"
    r"해(?:줘|줘요|요|도|라|봐|보자|주세요)?|돼|돼요|됩니다|된다|되고|"
    r"(?:좋|괜찮)(?:아|아요|습니다|다|네|지)?|그래(?:요|라)?|오케이|yes+|ok(?:ay)?|go+)$"
)
# Tokens that carry an ALWAYS phrase ("앞으로도", "always") but add no other meaning.
_ALWAYS_TOKEN = re.compile(r"^(?:앞으로|이제부터|다음부터|다음에도|항상|언제나|매번)\w*$")
_ALWAYS_EN_WORDS = frozenset(
    {"from", "now", "on", "always", "going", "forward", "every", "time", "in", "the", "future"}
)


def normalise(text: str) -> str:
    """NFC, lower case, typographic apostrophes made plain."""
    return unicodedata.normalize("NFC", text).lower().replace("\u2019", "'").strip()


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(normalise(text))


def has_negation(text: str) -> bool:
    """Any refusal, prohibition or hesitation in the reply, in Korean or English."""
    for token in tokens(text):
        if token in _EN_NEGATIONS or token.endswith("n't") or token.endswith("nt'"):
            return True
        if token in _KO_NEGATION_TOKENS or re.fullmatch(r"ㄴ+", token):
            return True
        if token.startswith(_KO_NEGATION_STARTS):
            return True
        if any(part in token for part in _KO_NEGATION_PARTS):
            return True
    return False


def asks_always(text: str) -> bool:
    """An explicit "from now on": the only way a reply in words gives ALWAYS."""
    flat = " ".join(tokens(text))
    return any(phrase in flat for phrase in _ALWAYS_PHRASES)


def _is_consent(token: str) -> bool:
    return token in _CONSENT_TOKENS or _CONSENT_PATTERN.match(token) is not None


def keyword_decision(text: str) -> WordsDecision | None:
    """The clear cases; None when only a classifier can tell."""
    words = tokens(text)
    if not words:
        return "unclear"
    if has_negation(text):
        return "deny"
    always = asks_always(text)
    rest = [
        word
        for word in words
        if not (always and (_ALWAYS_TOKEN.match(word) or word in _ALWAYS_EN_WORDS))
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
