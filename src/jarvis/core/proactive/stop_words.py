""" "Stop telling me about X" said in words (pure, KO/EN; issue 26).

`stop_request(text)` finds a sentence in which the person asks Jarvis to stop bringing a topic
up — "stop telling me about the weather", "don't remind me about the gym anymore", "날씨 얘기는
이제 그만해", "그 얘기 그만" — and returns the topic as said ("" for "that" / "그 얘기": the last
thing said first). It costs no model call: a cheap keyword check, then a few patterns per
sentence. It stays silent on what is not such a request: questions ("why do you keep telling me
about the weather?", "날씨 얘기 그만할까?"), negations ("don't stop telling me…", "그만하지 마"),
quotes and reported speech ('he said "stop telling me…"', "엄마가 날씨 얘기 그만하래"),
hypotheticals ("if you stop…") and other stops ("stop the build", "빌드 그만").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CHEAP = re.compile(
    r"stop|quit|don'?t|do not|never|enough|no more|그만|지\s*마|말아|안\s*해도|됐어", re.I
)
_EN_CHEAP = re.compile(r"stop|quit|don'?t|do not|never|enough|no more", re.I)
_KO_CHEAP = re.compile(r"그만|지\s*마|말아|안\s*해도|됐어")
MAX_SENTENCE = 120
_SENTENCES = re.compile(r"[^.!?。\n]+[.!?。]*")
_QUOTES = "\"“”'‘’「」『』"
_APOSTROPHE = re.compile(r"(?<=\w)['’](?=\w)")  # don't, it's: not a quote

# English: the verb phrase that names the topic after it ("about X", "up X", "X").
_EN_HEAD = (
    r"(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?"
    r"(?:stop|quit)\s+(?:telling|reminding|pinging|bugging|nagging|notifying)\s+me\s+"
    r"(?:about|of|regarding)\s+(?P<a>.+)"
    r"|(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:stop|quit)\s+"
    r"(?:talking|going\s+on)\s+about\s+(?P<b>.+)"
    r"|(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:stop|quit)\s+"
    r"(?:bringing\s+up|mentioning|raising)\s+(?P<c>.+)"
    r"|(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:stop|quit)\s+bringing\s+"
    r"(?P<d>.+?)\s+up"
    r"|(?:please\s+)?(?:don'?t|do\s+not|never)\s+(?:ever\s+)?"
    r"(?:remind|tell|ping|bug|notify)\s+me\s+(?:about|of|regarding)\s+(?P<e>.+?)"
    r"\s+(?:again|any\s*more|from\s+now\s+on)"
    r"|(?:please\s+)?(?:don'?t|do\s+not|never)\s+(?:ever\s+)?(?:bring\s+up|mention|raise)\s+"
    r"(?P<f>.+?)\s+(?:again|any\s*more|from\s+now\s+on)"
    r"|(?:please\s+)?(?:don'?t|do\s+not|never)\s+(?:ever\s+)?bring\s+(?P<g>.+?)\s+up"
    r"(?:\s+(?:again|any\s*more))?"
    r"|i\s+(?:don'?t|do\s+not)\s+want\s+to\s+hear\s+(?:about|of)\s+(?P<h>.+?)"
    r"\s+(?:again|any\s*more)"
    r"|enough\s+(?:about|of|with)\s+(?P<i>.+)"
    r"|no\s+more\s+(?:talk\s+(?:about|of)\s+|reminders?\s+(?:about|of)\s+)(?P<j>.+)"
)
_EN = re.compile(rf"^\s*(?:ok(?:ay)?|hey|jarvis|so|and|also|look)?[\s,]*(?:{_EN_HEAD})$", re.I)
_EN_TAIL = re.compile(
    r"(?:\s*[,]?\s*(?:please|thanks|thank\s+you|ok(?:ay)?|jarvis))*\s*[.!]*$"
    r"|\s+(?:again|any\s*more|from\s+now\s+on|for\s+now|for\s+a\s+while)\b.*$",
    re.I,
)
_EN_LEAD = re.compile(r"^(?:the|a|an|my|those|these|all\s+the|all|any)\s+", re.I)
_EN_DEICTIC = re.compile(r"^(?:it|that|this|them|those|that\s+topic|this\s+topic)$", re.I)

# Korean: "<topic> 얘기(는) (이제) 그만(해)", "<topic>(은) 더 이상 알려주지 마", "그 얘기 하지 마".
_KO_TALK = r"(?:얘기|이야기|애기|말|알림|소식|리마인드|리마인더)"
_KO_TOPIC = r"(?P<topic>.+?)\s*(?:에\s*대한|에\s*대해서?|관련(?:해서|된)?|에\s*관해서?)?\s*"
_KO_PART = r"(?:은|는|을|를|이|가|도)?"
_KO_SOFT = r"(?:\s*(?:좀|이제|이젠|앞으로|더\s*이상|더는|제발|그냥|정말|진짜))*"
_KO_STOP_END = r"(?:해|해요|해줘|해\s*줘|해\s*주세요|하세요|합시다|하자|요)?"
_KO_NOT_END = r"(?:마|마요|마세요|말아\s*줘|말아\s*주세요|말아요|말래|말아)"
_KO_SAID = rf"{_KO_TOPIC}{_KO_TALK}{_KO_PART}{_KO_SOFT}\s*"  # "<topic> 얘기는 이제 "
# Without 얘기 / 알림 the topic needs "no more" said: "날씨는 이제 알려주지 마"
# (not "메일 보내지 마").
_KO_NAMED = rf"{_KO_TOPIC}{_KO_PART}{_KO_SOFT}\s*(?:이제|이젠|앞으로|더\s*이상|더는|그만)\s*"
_KO_TELL = r"(?:말하지|얘기하지|이야기하지|알려\s*주지|알려주지|꺼내지|언급하지)"
_KO = tuple(
    re.compile(rf"^\s*(?:자비스\s*[,야]?\s*)?{head}\s*[.!~]*\s*$")
    for head in (
        rf"{_KO_SAID}그만{_KO_STOP_END}",
        rf"{_KO_SAID}(?:그만\s*)?(?:{_KO_TELL}|하지|보내지)\s*{_KO_NOT_END}",
        rf"{_KO_SAID}안\s*해도\s*(?:돼|돼요|됩니다)",
        rf"{_KO_SAID}(?:이제\s*)?됐어(?:요)?",
        rf"{_KO_NAMED}{_KO_TELL}\s*{_KO_NOT_END}",
        rf"{_KO_TOPIC}{_KO_PART}{_KO_SOFT}\s*그만\s*(?:말해|말해줘|알려줘|알려\s*줘|얘기해|꺼내)"
        rf"(?:요|\s*주세요)?",
    )
)
_KO_DEICTIC = re.compile(r"^(?:그|그거|그건|그것|이|이거|이건|저|저거|그런|이런|그\s*주제)$")
_KO_TRAIL = re.compile(
    r"\s*(?:좀|이제|이젠|앞으로|더\s*이상|더는|제발|그냥|정말|진짜|에\s*대한|에\s*대해서?"
    r"|관련(?:해서|된)?|에\s*관해서?|은|는)$"
)
_KO_LEAD = re.compile(r"^(?:이제|앞으로|제발|좀|그리고|근데|아|아니)\s+")

# Not a request of the person's own: a question, a negated stop, a report, a hypothetical.
_QUESTION = re.compile(
    r"\?\s*$|(?:까|니|나|냐|는지|을까|할까|래요|을래)\s*[.~]*$"
    r"|^\s*(?:why|when|how|what|who|should|shall|did|do|does|is|are|was|were|have|has)\b",
    re.I,
)
_POLITE_ASK = re.compile(r"^\s*(?:can|could|would|will)\s+you\b", re.I)
_NEGATED = re.compile(
    r"(?:don'?t|do\s+not|never|not)\s+(?:ever\s+)?(?:stop|quit)\b|그만\s*하지\s*마|그만두지\s*마",
    re.I,
)
_REPORTED = re.compile(
    r"\b(?:said|says|say|told|tells|asked|asks|wrote|texted|yelled)\b.*\b(?:stop|don'?t|enough)"
    r"|\b(?:tell|ask)\s+\w+\s+to\s+stop\b|\bif\s+you\b|\bwhen\s+you\b"
    r"|(?:라고|이라고|라는|하래|그만하래|하랬|말래|했대|한대|래)\s*[.!~]*$|만약|(?:하면|한다면)\s",
    re.I,
)


@dataclass(frozen=True)
class StopRequest:
    topic: str  # the words the person used for it; "" means "that": the last thing said first
    sentence: str


def _quoted(text: str, start: int) -> bool:
    return sum(text[:start].count(q) for q in _QUOTES) % 2 == 1


def _en_topic(raw: str) -> str:
    topic = raw.strip()
    for _ in range(3):
        topic = _EN_TAIL.sub("", topic).strip(" ,")
    topic = _EN_LEAD.sub("", topic).strip()
    return "" if _EN_DEICTIC.match(topic) else topic


def _ko_topic(raw: str) -> str:
    topic = raw.strip()
    while _KO_LEAD.match(topic):
        topic = _KO_LEAD.sub("", topic, count=1)
    for _ in range(4):  # "날씨에 대해서는 더 이상" → "날씨"
        topic = _KO_TRAIL.sub("", topic).strip()
    topic = re.sub(r"\s*(?:은|는|을|를|이|가|도)$", "", topic) if len(topic) > 2 else topic
    return "" if _KO_DEICTIC.match(topic.strip()) else topic.strip()


def _sentence(sentence: str) -> StopRequest | None:
    body = sentence.strip()
    # A stop request is one short sentence; a long one is about something else (and the
    # patterns below stay cheap on short input).
    if not body or len(body) > MAX_SENTENCE or not _CHEAP.search(body):
        return None
    if _NEGATED.search(body) or _REPORTED.search(body):
        return None
    if _QUESTION.search(body) and not (_POLITE_ASK.match(body) and "stop" in body.lower()):
        return None
    plain = body.rstrip("?.!~ ")
    found = _EN.match(plain) if _EN_CHEAP.search(plain) else None
    if found is not None:
        raw = next(v for v in found.groupdict().values() if v is not None)
        return StopRequest(_en_topic(raw), body)
    for pattern in _KO if _KO_CHEAP.search(plain) else ():
        found = pattern.match(plain)
        if found is not None:
            return StopRequest(_ko_topic(found.group("topic")), body)
    return None


def stop_request(text: str) -> StopRequest | None:
    """The person's "stop telling me about X" in `text`, or None (see the module's doc)."""
    if not _CHEAP.search(text[:600]):
        return None
    window = _APOSTROPHE.sub("", text[:600])
    for match in _SENTENCES.finditer(window):
        if _quoted(window, match.start()) or any(q in match.group(0) for q in _QUOTES):
            continue
        found = _sentence(match.group(0))
        if found is not None and len(found.topic) <= 60:
            return found
    return None
