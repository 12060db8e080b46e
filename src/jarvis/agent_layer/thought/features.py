"""Cheap KO/EN features of one prompt, for the thought router (no model, no I/O).

Each feature is a plain number: a cue present (1.0) or absent (0.0), or a bounded count. The
names are the keys of the router's weight file (`router_weights.json`); renaming one is a new
weight-file version. Hard-rule cues (thanks, bare yes/no, "think carefully") are separate
predicates: the router applies them before any weight.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from jarvis.agent_layer.thought.cues import Cue


def _any(*patterns: str | tuple[str, str]) -> Cue:
    return Cue(*patterns)


# Korean has no spaces inside words: Korean cues are substrings, English ones whole words.
_CUES: dict[str, Cue] = {
    "multi_step": _any(
        r"먼저.{0,40}(그\s?다음|그리고\s?나서|다음에|후에)",
        r"단계(별|적으로)?",
        r"차례(대로|로)",
        r"순서(대로)?",
        r"\bstep[- ]by[- ]step\b",
        r"\bsteps?\b",
        r"\bfirst\b.{0,60}\b(then|after that|next)\b",
        r"\band then\b",
        (r"[.)*-]\s", r"(^|\n)\s*(\d+[.)]|[-*])\s+\S.*\n\s*(\d+[.)]|[-*])\s+\S"),
    ),
    "planning": _any(
        r"계획",
        r"일정(을|좀)?\s?짜",
        r"전략",
        r"설계",
        r"로드맵",
        r"구조(를|을)?\s?(잡|짜|바꾸)",
        r"마이그레이션",
        r"\bplan(ning)?\b",
        r"\bstrateg(y|ies)\b",
        r"\broadmap\b",
        r"\bdesign\b",
        r"\barchitect(ure)?\b",
        r"\bmigrat(e|ion)\b",
        r"\bschedule\b",
    ),
    "comparison": _any(
        r"비교",
        r"차이(가|점|는)?",
        (r"뭐|어느|어떤", r"(뭐|어느|어떤)\s?(게|것이|쪽이)\s?(더\s?)?(나|좋|낫)"),
        r"장단점",
        r"대신",
        r"\bcompar(e|ison|ing)\b",
        r"\bvs\.?\b",
        r"\bversus\b",
        r"\bdifference\b",
        r"\bpros and cons\b",
        r"\btrade-?offs?\b",
        r"\bwhich (one |is )?(is )?(better|faster|best)\b",
        r"\binstead of\b",
    ),
    "why_how": _any(
        r"왜",
        r"어떻게",
        r"이유",
        r"원리",
        r"무슨\s?뜻",
        r"\bwhy\b",
        r"\bhow (do|does|can|could|should|would|to|come)\b",
        r"\bexplain\b",
        r"\breason\b",
    ),
    "debugging": _any(
        r"에러",
        r"오류",
        r"버그",
        r"안\s?(돼|되|됨|먹)",
        r"실패",
        r"깨져",
        r"터져",
        r"죽어",
        r"멈춰",
        r"디버그",
        r"\berror\b",
        r"\bbug\b",
        r"\btraceback\b",
        r"\bexception\b",
        r"\bfail(s|ed|ing|ure)?\b",
        r"\bcrash(es|ed)?\b",
        r"\bbroken\b",
        r"\bdoesn'?t work\b",
        r"\bnot working\b",
        r"\bdebug\b",
        r"\bhangs?\b",
    ),
    "ambiguous_ref": _any(
        (r"그거|그것|저거|이거|그걸|그게", r"(^|\s)(그거|그것|저거|이거|그걸|그게)"),
        r"아까",
        r"저번(에)?",
        r"방금",
        r"위에서?",
        r"앞에서",
        r"말한\s?(거|것)",
        r"\bth(at|e) (one|thing|file|issue|error) (from|you|we|i)\b",
        r"\bearlier\b|\bprevious(ly)?\b|\bbefore\b|\babove\b|\blast time\b",
        r"\bwhat we (discussed|talked about|did)\b",
        r"^(and |so |but )?(it|that|this)\b",
    ),
    "deadline": _any(
        r"까지",
        r"마감",
        r"기한",
        r"내일",
        r"오늘\s?(안에|중)",
        r"다음\s?주",
        r"\bby (tomorrow|tonight|today|monday|tuesday|wednesday|thursday|friday|\d)",
        r"\bdeadline\b",
        r"\bdue\b",
        r"\bbefore (the )?(meeting|end of|eod|noon)\b",
        r"\basap\b",
    ),
    "open_goal": _any(
        r"개선",
        r"최적화",
        r"리팩터",
        r"리팩토링",
        r"하고\s?싶",
        r"목표",
        r"방법(을|이)?",
        r"어떻게\s?하면",
        r"좋을까",
        r"조언",
        r"고민",
        r"따져",
        r"결정",
        r"추천",
        r"\bimprove\b",
        r"\boptimi[sz]e\b",
        r"\brefactor\b",
        r"\bi want to\b",
        r"\bgoal\b",
        r"\bbest way\b",
        r"\badvice\b",
        r"\brecommend\b",
        r"\bshould i\b",
        r"\bhelp me\b",
        r"\bdecide\b",
    ),
    # A fact with one answer, or a given short text to rewrite: a direct answer is best.
    "lookup_or_rewrite": _any(
        (
            r"뭐|무엇|누구|언제|어디|몇",
            r"(뭐|무엇|누구|언제|어디|몇\s?\S{0,3})\s?(야|예요|이야|에요|인가요|니)\??$",
        ),
        r"번역",
        r"맞춤법",
        r"띄어쓰기",
        r"^(what('s| is| are| does)|who (is|was|wrote)|when (is|was|did)|where is)\b[^,;]{0,60}\?$",
        r"\btranslate\b",
        r"\btypo\b",
        r"\bcapitali[sz]e\b",
        r"\bspell(ing)?\b",
    ),
    "code_or_path": _any(
        r"`[^`]+`",
        (
            r"\.(py|js|ts|go|rs|java|sh|yaml|yml|json|toml|md|sql|c|cpp|h)\b",
            r"\b[\w./-]+\.(py|js|ts|go|rs|java|sh|yaml|yml|json|toml|md|sql|c|cpp|h)\b",
        ),
        r"traceback \(most recent call last\)",
        r"error(?<=\werror)\b",  # ≡ \b\w+error\b, and found as fast as the word "error"
        r"\bline \d+\b",
    ),
    "chitchat": _any(
        r"^(안녕|하이|ㅎㅇ|반가워|잘\s?지내|좋은\s?아침|굿모닝|잘\s?자)",
        r"ㅋㅋ|ㅎㅎ",
        r"심심",
        r"농담",
        r"^(hi|hello|hey|yo|good (morning|night|evening))\b",
        r"\bhow are you\b",
        r"\blol\b|\bhaha\b",
        r"\bjoke\b",
    ),
    "single_action": _any(
        r"^\S*(\s\S+){0,4}\s?(열어|보여|띄워|실행해|읽어|켜|꺼|지워|만들어|알려)\s?(줘|주세요|줄래)?[.!]?$",
        r"^(show|open|list|read|run|print|cat|display|delete|create|tell me)\b"
        r"\S*(\s\S+){0,5}[.!]?$",
    ),
}

# How many distinct tools a request names: several tools in one request need a plan.
_TOOL_CUES = (
    _any(r"파일|폴더|디렉터리|\bfiles?\b|\bfolder\b|\bdirectory\b"),
    _any(r"검색|찾아|\bsearch\b|\bgoogle\b|\blook up\b"),
    _any(r"실행|명령|터미널|\bbash\b|\bshell\b|\brun\b|\bcommand\b"),
    _any(r"\bgit\b|커밋|\bcommit\b|\bbranch\b|브랜치|\bpr\b"),
    _any(r"웹|사이트|링크|\burl\b|\bweb\b|\bpage\b|\bfetch\b"),
    _any(r"써\s?줘|작성|저장|수정|고쳐|\bwrite\b|\bedit\b|\bsave\b|\bfix\b"),
    _any(r"메일|이메일|\bemail\b|\bmail\b|슬랙|\bslack\b"),
)

_THINK_REQUEST = _any(
    r"(잘|깊이|깊게|곰곰이|천천히|꼼꼼히|신중하게|차근차근)\s?(생각|고민|따져)",
    r"생각\s?(좀\s?)?(깊이|많이|해\s?보고)",
    r"심사숙고",
    r"\bthink (carefully|hard|harder|deeply|it through|step by step)\b",
    r"\btake your time\b",
    r"\bultrathink\b",
    r"\breason (carefully|step by step)\b",
)

_YES_NO = re.compile(
    r"^(네|넵|넹|예|응|웅|어|아니|아니요|아뇨|아니오|노|ㅇㅇ|ㄴㄴ|ㅇㅋ|오케이|좋아|좋아요|그래|그래요|"
    r"yes|yeah|yep|yup|no|nope|nah|ok|okay|k|sure|y|n)[.!~ ]*$",
    re.IGNORECASE,
)

_ACK = re.compile(
    r"^(고마워|고맙습니다|감사|감사합니다|감사해요|땡큐|수고|수고했어|수고하셨습니다|알겠어|알겠습니다|알았어|"
    r"좋네|좋다|굿|멋져|최고|완벽|잘했어|훌륭해|오케이|"
    r"thanks?( you)?( so much| a lot)?|thx|ty|great|perfect|nice|cool|awesome|got it|"
    r"sounds good|good job|well done|understood|noted)"
    r"[\s.!~^ㅎㅋ👍🙏😊]*$",
    re.IGNORECASE,
)

FEATURE_NAMES: tuple[str, ...] = (*_CUES, "several_tools", "length", "sentences")


@dataclass(frozen=True)
class RouteInput:
    """What the router sees of one prompt; flags come from the session, not from the text."""

    text: str
    pending_approval: bool = False  # the prompt answers an approval that is waiting


def normalise(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip()


# Cues are read in the first and last part of a long prompt (a pasted log in the middle would
# make every prompt pay for its length); the length feature still counts the whole.
_HANGUL = re.compile("[가-힣]")
_HEAD, _TAIL = 400, 200
_SENTENCE_END = re.compile(r"[.?!？。\n]+(?=\s*\S)")
# log10 of the letters is capped at 3.0: past 1,000 characters the Hangul count cannot matter
_LENGTH_CAP = 1000


def _ends(norm: str) -> str:
    if len(norm) <= _HEAD + _TAIL:
        return norm
    return f"{norm[:_HEAD]}\n{norm[-_TAIL:]}"


_SLASH = re.compile(r"^/[A-Za-z][\w-]*(:[^\s/]+)?(\s|$)")


@dataclass(frozen=True)
class Prepared:
    """One prompt made ready once: NFC-normalised and stripped, and its lower-cased ends."""

    norm: str
    ends: str

    @classmethod
    def of(cls, text: str) -> Prepared:
        norm = normalise(text)
        return cls(norm, _ends(norm).lower())


def prepared_features(prompt: Prepared) -> dict[str, float]:
    """Every cue on the bounded ends (≤ 601 characters, whatever the prompt's length)."""
    ends = prompt.ends
    found = {name: 1.0 if cue.search(ends) else 0.0 for name, cue in _CUES.items()}
    tools = sum(1 for cue in _TOOL_CUES if cue.search(ends))
    found["several_tools"] = 1.0 if tools >= 2 else 0.0
    # log length, a Hangul syllable counted as two letters (it carries about as much):
    # 10 letters ≈ 1.0, 100 ≈ 2.0, 1000 ≈ 3.0 (capped)
    norm = prompt.norm
    letters = len(norm)
    if letters < _LENGTH_CAP:
        letters += len(_HANGUL.findall(norm))
    found["length"] = min(3.0, math.log10(max(letters, 1)))
    found["sentences"] = float(min(4, len(_SENTENCE_END.findall(ends))))
    return found


def features(text: str) -> dict[str, float]:
    """The weighted features of one prompt (every name in FEATURE_NAMES)."""
    return prepared_features(Prepared.of(text))


def hard_rule(prompt: Prepared) -> tuple[bool, str] | None:
    """(think, reason) when a hard rule decides, in the router's order; None otherwise."""
    norm = prompt.norm
    if _SLASH.match(norm) is not None:
        return False, "slash_command"
    if _YES_NO.match(norm) is not None:
        return False, "yes_no"
    if len(norm) <= 40 and _ACK.match(norm) is not None:
        return False, "acknowledgement"
    if _THINK_REQUEST.search(prompt.ends):
        return True, "asked_to_think"
    return None


def asks_to_think(text: str) -> bool:
    return _THINK_REQUEST.search(Prepared.of(text).ends)


def is_yes_no(text: str) -> bool:
    return _YES_NO.match(normalise(text)) is not None


def is_acknowledgement(text: str) -> bool:
    norm = normalise(text)
    return len(norm) <= 40 and _ACK.match(norm) is not None


def is_slash_command(text: str) -> bool:
    """`/stop`, `/openloop done 3`, `/server:prompt` — not a path such as `/etc/hosts`."""
    return _SLASH.match(normalise(text)) is not None
