"""The fact guard: may this sentence of the person's become a fact about them? (pure, KO+EN)

Only a first-person, non-hypothetical, non-question, non-quoted statement about the person
passes, whatever a model proposed. Hypotheticals ("if I lived in Busan"), questions, quotes of
others, statements about third parties, jokes and role-play never become facts. When in doubt the
answer is no: a missed fact costs a sentence later, a false one costs trust.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

Reason = Literal[
    "stated", "hypothetical", "question", "quoted", "third_party", "joke_or_sarcasm", "other"
]


@dataclass(frozen=True)
class GuardResult:
    fact: bool
    reason: Reason


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


_JOKE = _any(
    r"ㅋㅋ|ㅎㅎ|농담|장난이|뻥이|구라",
    r"\b(lol|lmao|rofl|haha+|jk|j/k|kidding|joking|yeah right|sure,? sure)\b",
    r"/s\b",
    r"[😂🤣😜😝🙃]",
)
_HYPOTHETICAL = _any(
    r"만약|만일|가정|상상|라면|다면|었으면|았으면|했으면|척\s?(하|을|해)|역할극|롤플|치고|치면|싶다면",
    r"면\s?좋겠|고\s?싶|[가-힣]면(\s|$)",
    r"\b(if|suppose|supposing|imagine|pretend|hypothetically|what if|assuming|let'?s say)\b",
    r"\bi (would|'d|could|might|wish)\b",
    r"\bi'?d\b",
    r"\b(role-?play|in character|as a character)\b",
    r"\bwere i\b",
)
_QUOTED = _any(
    r"[\"“”「」『』]",
    r"(이|가)?라고\s?(했|하더|말|그러)",
    r"(했|한)?대\b|했대|한대|라더라|라던데|그러던데|그러더라|랬어|랬다|래\s*[.!~]*$",
    r"\b(said|says|told me|tells me|according to|claims?|claimed)\b",
)
_QUESTION = _any(
    r"[?？]\s*$",
    r"(까|니|나요|가요|ㄹ까|는지|냐|나|지요|죠|어때)\s*[.!~]*$",
    r"^(who|what|when|where|why|how|which|is|are|am|do|does|did|can|could|should|would|will)\b",
)
# Someone else is the subject: "my wife is …", "내 동생은 …", "he …".
_PEOPLE_KO = (
    r"(엄마|아빠|어머니|아버지|부모님|형|오빠|누나|언니|동생|남편|아내|와이프|여친|남친|여자친구|"
    r"남자친구|친구|동료|팀장|상사|사장|부장|과장|선배|후배|아들|딸|애들|아이|삼촌|이모|고모|할머니|할아버지|"
    r"교수|선생님|룸메이트|그|그녀|걔|쟤|그분|그 사람)"
)
_THIRD_PARTY = _any(
    rf"{_PEOPLE_KO}\s?(님)?\s?(은|는|이|가|도|께서)\s",
    r"\bmy (wife|husband|partner|mom|mother|dad|father|parents|brother|sister|son|daughter|kids?|"
    r"friend|friends|boss|manager|colleague|coworker|roommate|girlfriend|boyfriend|teacher|team)\b",
    r"^(he|she|they|his|her|their)\b",
)
_FIRST_PERSON_EN = _any(r"\b(i|i'm|im|i've|i'll|my|me|mine)\b")
_FIRST_PERSON_KO = _any(
    r"(^|\s)(나는|난|저는|전|제가|내가|나|저|제|내)(\s|$)", r"^(나|저|제|내)\s?"
)
_HANGUL = re.compile("[가-힣]")
_SELF_PREDICATE = _any(
    r"살아|살고|살아요|일해|일하|다녀|다니|좋아|싫어|공부|배우|전공|사용|쓰고|써요|근무|담당|맡고",
    r"이름|직업|취미|출신|태어|전문|선호",
    r"(이에요|예요|입니다|이야|이다|[가-힣]야)\s*[.!~]*$",
)


def check_statement(sentence: str) -> GuardResult:
    """Whether `sentence` may become a fact about the person who typed it, and why (not)."""
    text = unicodedata.normalize("NFC", sentence).strip()
    low = text.lower()
    if not low:
        return GuardResult(False, "other")
    if _JOKE.search(low):
        return GuardResult(False, "joke_or_sarcasm")
    if _QUESTION.search(low):
        return GuardResult(False, "question")
    if _HYPOTHETICAL.search(low):
        return GuardResult(False, "hypothetical")
    if _QUOTED.search(low):
        return GuardResult(False, "quoted")
    if _THIRD_PARTY.search(low):
        return GuardResult(False, "third_party")
    korean = _HANGUL.search(low) is not None
    if korean and _starts_with_other(low):
        # "민수는 디자이너야" is about 민수; "비가 오네" is about nobody
        return GuardResult(False, "third_party" if _SELF_PREDICATE.search(low) else "other")
    # Korean drops the subject ("서울 살아요" is about the speaker) — then a predicate about a
    # person must be there; English must say I/my.
    if korean and (_FIRST_PERSON_KO.search(low) or _SELF_PREDICATE.search(low)):
        return GuardResult(True, "stated")
    if _FIRST_PERSON_EN.search(low):
        return GuardResult(True, "stated")
    return GuardResult(False, "other")


_TOPIC = re.compile(r"^([가-힣a-z]{1,10})(은|는|이|가)\s")
_NOT_A_SUBJECT = re.compile(
    r"^(요즘|오늘|지금|이번|저번|원래|보통|평소|항상|주로|직업|이름|취미|회사|일|시간대)$"
)
_TASTE = _any(r"좋아|싫어|싫다|관심|별로|최고|최악")


def _starts_with_other(low: str) -> bool:
    """A Korean sentence whose subject is someone or something else (`민수는 …`, `비가 …`), not
    the speaker; "회의는 싫어" (a taste, no other object) is the speaker's."""
    if _FIRST_PERSON_KO.search(low):
        return False
    topic = _TOPIC.match(low)
    if topic is None or _NOT_A_SUBJECT.match(topic.group(1)):
        return False
    rest = low[topic.end() :]
    return not (_TASTE.search(rest) and not re.search(r"[가-힣](을|를)\s", rest))
