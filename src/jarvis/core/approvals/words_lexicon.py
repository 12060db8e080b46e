"""The word lists behind answers in words (`words.py` holds the rules that read them).

Consent is a closed list: a reply allows by keyword only when every word of it is one of these
whole forms. Negation is an open net: fragments found anywhere in a word, fused or spaced.
"""

from __future__ import annotations

import re
from itertools import product

# Characters a reply may hold besides its words and still be read by keyword: spaces and plain
# punctuation. Anything else (an emoji, a symbol, another script, a look-alike letter) sends the
# reply to the classifier, so a "yes" is never read past a sign that might take it back.
PLAIN_MARKS = frozenset(" \t\r\n.,!?~…'\"‘’“”-^")

# Signs that refuse or hesitate; one anywhere in a reply is a negation.
REFUSING_SIGNS = (
    "👎", "🙅", "❌", "❎", "✖", "✗", "✘", "⛔", "🚫", "🛑", "✋", "🤚", "⏸", "⏹", "🤔", "🙄",
    "😬", "😱", "😡", "🤬", "💢",
)  # fmt: skip
# Conjoining jamo and half-width letters that are ㄴ ("no" in chat) when spelled otherwise.
NIEUN_SPELLINGS = str.maketrans({"\u1102": "ㄴ", "\u11ab": "ㄴ", "\uffa4": "ㄴ"})

# --- negation -------------------------------------------------------------------------------
KO_NEGATION_TOKENS = frozenset(
    {"노", "마", "마라", "마요", "마세요", "말", "말아", "말어", "no", "x"}
)  # fmt: skip
# Fragments that refuse wherever they stand in a word: "실행안해", "진행불가", "승인반려".
KO_NEGATION_PARTS = (
    "않", "말고", "말아", "말라", "말자", "말것", "지마", "하지말", "아니", "아냐", "아뇨",
    "싫", "거부", "거절", "취소", "중지", "중단", "멈춰", "멈추", "멈춤", "그만", "잠깐",
    "잠시", "기다려", "기다리", "대기", "금지", "절대", "스톱", "보류", "나중에", "위험",
    "빼고", "빼줘", "제외", "불가", "반려", "불허", "기각", "노노", "없어", "없이", "필요없",
    "됐어", "됐습", "됐고", "됐다니", "패스", "스킵", "ㄴ",
)  # fmt: skip
# 안 and 못 negate the verb they stand before ("안 해", "실행안해", "못해"); one in a word
# is a negation unless it belongs to one of these words.
KO_NEGATING_SYLLABLES = ("안", "못")
KO_WORDS_WITH_AN = (
    "안녕", "안전", "안내", "안심", "안정", "안쪽", "안경", "제안", "방안", "안건", "안방",
)  # fmt: skip

EN_NEGATIONS = frozenset(
    {
        "no", "n", "x", "nope", "nah", "nay", "not", "never", "dont", "don't", "cannot",
        "stop", "wait", "hold", "cancel", "deny", "denied", "reject", "refuse", "abort",
        "halt", "later", "without", "nothing", "neither", "nor", "none", "pause", "hang",
        "careful", "unsafe", "risky", "skip", "nix", "negative", "nevermind",
    }
)  # fmt: skip
# Words that refuse in any inflection: "stopped", "waiting", "cancelled", "holdup".
EN_NEGATION_STEMS = (
    "stop", "wait", "hold", "cancel", "deny", "abort", "halt", "pause", "refus", "reject",
    "never", "nope", "dont",
)  # fmt: skip
# Fragments taken out of a fused word ("yesno", "oknot", "ynoes") to see whether what is left
# is consent: then the word was a consent with a refusal spliced in.
EN_SPLICED = tuple(sorted((w for w in EN_NEGATIONS if len(w) >= 2 or w == "x"), key=len))

# --- politeness that often declines ---------------------------------------------------------
# "괜찮아요" / "no thanks" / "I'm good" are as often "no, thank you" as "go ahead": never a
# keyword allow, the classifier reads them in context.
POLITE_AMBIGUOUS = re.compile(
    r"^(?:괜찮\w*|고마\w*|감사\w*|수고\w*|fine|good|great|thanks?|thx|ty|thankyou|cool|"
    r"i'm|im|all|alright|whatever|maybe|perhaps|probably)$"
)

# --- consent --------------------------------------------------------------------------------
_KO_STEMS = ("실행", "진행", "허용", "승인", "허락", "시작")
_KO_STEM_ENDINGS = (
    "", "해", "해요", "해줘", "해줘요", "해주세요", "해주라", "해라", "해봐", "해봐요", "해도",
    "해도돼", "해도돼요", "해도됩니다", "해도좋아", "해도좋아요", "하세요", "하십시오", "합니다",
    "할게", "할게요", "하자", "해버려", "시켜", "시켜줘", "시켜요", "시켜주세요", "하셔도",
    "하셔도돼요", "하셔도됩니다", "해주십시오", "해주세요요",
)  # fmt: skip
_KO_PLAIN = (
    "응", "어", "엉", "웅", "네", "넵", "넹", "예", "옙", "그래", "그래요", "그래라", "그럼",
    "좋아", "좋아요", "좋습니다", "좋다", "좋지", "좋네", "오케이", "오키", "콜", "고", "고고",
    "계속", "그냥", "바로", "지금", "빨리", "일단", "이거", "그거", "그대로", "진짜", "부탁해",
    "부탁해요", "부탁합니다", "줘", "줘요", "주세요", "그렇게", "확인", "당연", "당연하지",
    "물론", "물론이지", "해", "해요", "해줘", "해줘요", "해주세요", "해라", "해봐", "해보자",
    "해도", "해도돼", "돼", "돼요", "됩니다", "된다",
)  # fmt: skip
_EN_PLAIN = (
    "ok", "okay", "okey", "k", "kk", "yes", "yess", "yesss", "y", "yep", "yeah", "yup", "ya",
    "sure", "go", "goo", "gogo", "ahead", "do", "it", "run", "proceed", "approve", "approved",
    "allow", "allowed", "please", "now", "right", "away", "this", "confirm", "confirmed",
    "continue",
)  # fmt: skip
CONSENT_FORMS = frozenset(
    {stem + ending for stem, ending in product(_KO_STEMS, _KO_STEM_ENDINGS)}
    | set(_KO_PLAIN)
    | set(_EN_PLAIN)
)
# Repeated letters people type for a yes: ㅇㅇ, ㄱㄱ, ㅇㅋ, yesss, gooo, okk.
CONSENT_REPEATS = re.compile(
    r"^(?:ㅇ{1,6}|ㄱ{1,6}|(?:ㅇㅋ){1,3}ㅋ{0,4}|ye{1,3}s{1,6}|go{1,6}|ok{1,4})$"
)

# "앞으로", "always", …: only these make a yes ALWAYS.
ALWAYS_PHRASES = (
    "앞으로", "이제부터", "다음부터", "다음에도", "항상", "언제나", "매번",
    "from now on", "always", "going forward", "every time", "in future", "in the future",
)  # fmt: skip
ALWAYS_TOKEN = re.compile(
    r"^(?:앞으로|이제부터|다음부터|다음에도|항상|언제나|매번)(?:도|는|부터|도요)?$"
)
ALWAYS_EN_WORDS = frozenset(
    {"from", "now", "on", "always", "going", "forward", "every", "time", "in", "the", "future"}
)
