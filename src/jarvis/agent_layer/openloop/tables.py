"""The reviewed vocabulary of open-loop judgement: one table per concept, no rules hidden in code.

Built from the team's labelled pairs (`experiments/data/loop_pairs.yaml`, tune split). Korean
stems are written without endings ("보내" for 보내기/보내줘), English words as lemmas. A word
may belong to several action classes ("내" pays a bill and hands in a form); two actions agree
when their class sets share one. Add a row here, and a test row in
`tests/unit/openloop/test_tables.py`, rather than a regex elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping

# ---- Korean morphology (stripped by rule, never by a model) ------------------------------------

# Particles stripped from the end of a word when ≥ 2 characters remain, longest first.
KO_PARTICLES: tuple[str, ...] = tuple(sorted(
    {
        "에게서", "한테서", "으로부터", "로부터", "에서는", "에게는", "한테는", "까지는", "께서는",
        "이랑은", "에서", "에게", "한테", "께서", "까지", "부터", "으로", "이랑", "하고", "처럼",
        "보다", "마다", "은", "는", "이", "가", "을", "를", "에", "께", "로", "와", "과", "랑",
        "의", "도", "만", "엔", "요",
    },
    key=len, reverse=True,
))  # fmt: skip
# Particles that mark who receives: the word before them is a recipient.
KO_RECIPIENT_PARTICLES: tuple[str, ...] = ("에게서", "한테서", "에게", "한테", "께서", "께")

# Verb endings stripped from the predicate (the last word), longest first. "하기" leaves the
# verbal noun ("제출하기" → 제출); honorific auxiliaries go too ("보고드리기" → 보고).
KO_ENDINGS: tuple[str, ...] = tuple(sorted(
    {
        "해드리기", "해드려", "해주기", "해줘", "해줄게", "주기", "줘", "줘야", "줄게", "해야지",
        "해야", "해두기", "해놓기",
        "드리기", "드려야", "드려", "하러", "하기", "하자", "할게", "하고", "해서", "하다", "해요",
        "합니다", "하는", "할", "해", "하", "기", "러", "자", "다", "고", "서",
    },
    key=len, reverse=True,
))  # fmt: skip
# Connective endings of a verb in the middle ("받으러 가기", "가서", "사 가기"), with the longest
# stem each may leave: stripped only when a known verb stem remains. 서/고 leave one syllable
# at most, so "보고서" (a report) and "신청서" stay nouns.
KO_CONNECTIVES: tuple[tuple[str, int], ...] = (
    ("으러", 9),
    ("러", 9),
    ("서", 1),
    ("고", 1),
    ("아", 1),
    ("어", 1),
)
# Adnominal endings in the middle ("회식할 식당"): stripped when ≥ 2 characters remain.
KO_ADNOMINALS: tuple[str, ...] = ("하는", "할", "한", "된", "될")

# Stems that change shape under an ending ("알려" ← 알리다, "봐" ← 보다) and honorific forms,
# mapped to the plain stem.
KO_STEM_FORMS: Mapping[str, str] = {
    "알려": "알리", "알려주": "알리", "알려드리": "알리", "봐오": "보", "봐": "보", "봐주": "보",
    "여쭤보": "묻", "여쭙": "묻", "여쭈": "묻", "물어보": "묻", "물어": "묻", "드리": "주",
    "찾아오": "찾아오", "받아오": "찾아오", "갖다": "", "가져다": "", "다녀오": "가",
    "들러": "들르",
    "해지하": "해지", "발급받": "발급", "올려": "올리", "올려주": "올리", "보내줘": "보내",
    "보내주": "보내", "전해": "전달", "전하": "전달", "맡겨": "맡기", "빌려": "빌리",
    "돌려주": "돌려주", "돌려받": "돌려받", "줘": "주", "잡아": "잡", "정해": "정하",
    "시켜": "시키", "써": "쓰", "바꿔": "바꾸", "다듬어": "다듬", "챙겨": "챙기",
}  # fmt: skip

# ---- honorific and colloquial words --------------------------------------------------------

# The same person or thing said politely or plainly.
SAME_WORDS: Mapping[str, str] = {
    "어머니": "엄마", "어머님": "엄마", "아버지": "아빠", "아버님": "아빠", "생신": "생일",
    "진지": "밥", "댁": "집", "성함": "이름", "연세": "나이", "운전면허증": "운전면허",
    "면허증": "면허", "예방접종": "예방 접종", "건강검진": "건강 검진", "선물": "선물",
    "present": "gift", "mother": "mom", "mum": "mom", "father": "dad", "grandmother": "grandma",
    "grandfather": "grandpa", "electric": "electricity", "appt": "appointment",
    "tmrw": "tomorrow", "tmr": "tomorrow", "리스트": "목록", "명단": "목록",
    "슬라이드": "발표 자료", "pt자료": "발표 자료", "미팅": "회의", "mtg": "meeting",
    "와이프": "아내", "집사람": "아내", "신랑": "남편", "반려견": "강아지", "애견": "강아지",
    "반려묘": "고양이", "점심때": "점심", "저녁때": "저녁", "kid": "child",
}  # fmt: skip

# Latin words inside Korean text that mean a Korean word ("냉장고 AS 신청" = 수리 신청).
KO_LATIN_WORDS: Mapping[str, str] = {"as": "수리", "a s": "수리", "pt": "pt"}

# ---- actions ---------------------------------------------------------------------------------

# Action class → the Korean stems and English lemmas that say it.
ACTIONS: Mapping[str, tuple[str, ...]] = {
    "send": ("보내", "전달", "부치", "발송", "송부", "전송", "넘기", "send", "forward", "mail",
             "ship", "pass on"),
    "give": ("주", "드리", "건네", "건네주", "give", "hand", "hand over"),
    "give_back": ("돌려주", "반환", "give back"),
    "get_back": ("돌려받", "get back", "recover"),
    "lend": ("빌려주", "lend", "loan"),
    "receive": ("받", "수령", "receive"),
    "collect": ("찾아오", "찾", "픽업", "collect", "pick up", "fetch"),
    "deliver": ("drop off", "deliver", "배달", "배송"),
    "write": ("작성", "쓰", "만들", "write", "draft", "fill out", "create", "make", "compose"),
    "review": ("검토", "확인", "리뷰", "점검", "체크", "살펴보", "훑어보", "review", "check",
               "go over", "look over", "look at", "go through", "verify", "double check"),
    "proofread": ("교정", "퇴고", "proofread", "edit"),
    "polish": ("다듬", "polish"),
    "translate": ("번역", "translate"),
    "sign": ("서명", "사인", "sign"),
    "approve": ("결재", "승인", "approve", "sign off"),
    "pay": ("납부", "내", "결제", "이체", "송금", "입금", "넣", "정산", "pay", "transfer",
            "settle", "wire"),
    "pay_back": ("갚", "상환", "pay back", "repay"),
    "submit": ("제출", "내", "submit", "hand in", "turn in", "file"),
    "buy": ("사", "구매", "구입", "장만", "buy", "purchase"),
    "order": ("주문", "시키", "order"),
    "sell": ("팔", "판매", "sell"),
    "book": ("예약", "예매", "book", "reserve"),
    "schedule": ("잡", "정하", "schedule", "set up", "arrange", "plan"),
    "apply": ("신청", "접수", "등록", "지원", "가입", "sign up", "register", "apply", "enroll",
              "subscribe", "join"),
    "renew": ("갱신", "연장", "renew", "extend"),
    "call": ("전화", "연락", "통화", "call", "phone", "ring", "call back", "contact",
             "reach out"),
    "message": ("문자", "카톡", "text", "message", "dm", "ping"),
    "email": ("메일", "email", "write to"),
    "reply": ("답장", "회신", "답", "reply", "respond", "answer", "write back"),
    "ask": ("묻", "요청", "부탁", "문의", "ask", "request", "inquire"),
    "inform": ("공유", "알리", "공지", "share", "tell", "inform", "let know", "notify"),
    "upload": ("올리", "업로드", "게시", "upload", "post"),
    "print": ("출력", "인쇄", "프린트", "뽑", "print", "print out"),
    "copy": ("복사", "복제", "copy", "duplicate"),
    "prepare": ("준비", "챙기", "prepare", "get ready", "pack", "put together"),
    "organise": ("정리", "정돈", "organize", "organise", "sort", "tidy", "sort out"),
    "clean": ("청소", "닦", "clean", "clear out", "clean out", "wash"),
    "install": ("설치", "install", "set up"),
    "repair": ("수리", "고치", "fix", "repair"),
    "entrust": ("맡기",),
    "replace": ("교체", "바꾸", "갈", "replace", "change", "swap"),
    "update": ("업데이트", "갱신", "update", "refresh"),
    "visit": ("가", "방문", "들르", "다녀오", "visit", "go", "stop by", "drop by"),
    "take": ("먹", "복용", "take"),
    "feed": ("먹이", "feed"),
    "meet": ("만나", "meet", "see"),
    "attend": ("보", "참석", "참가", "attend"),
    "learn": ("외우", "암기", "공부", "배우", "memorize", "learn", "study"),
    "find": ("알아보", "찾아보", "조사", "검색", "look up", "look into", "research", "find",
             "search"),
    "choose": ("고르", "선택", "정하", "choose", "pick", "select"),
    "issue": ("발급", "떼", "issue"),
    "backup": ("백업", "back up", "backup"),
    "delete": ("삭제", "지우", "포맷", "delete", "remove", "erase", "wipe"),
    "photograph": ("찍", "촬영", "shoot", "photograph"),
    "distribute": ("배포", "나눠주", "distribute", "hand out"),
    "charge": ("충전", "charge"),
    "borrow": ("빌리", "대여", "borrow", "rent"),
    "lease_out": ("임대", "lease"),
    "finish": ("끝내", "마치", "마무리", "완료", "마감", "finish", "wrap up", "complete"),
    "accept": ("수락", "승낙", "accept"),
    "negotiate": ("협상", "흥정", "negotiate"),
    "vaccinate": ("맞히", "맞", "접종", "vaccinate"),
    "report": ("보고", "report"),
    "throw_away": ("버리", "내놓", "throw away", "throw out", "dispose", "take out"),
    "water": ("물 주", "water"),
    "move": ("옮기", "이사", "move"),
    "practise": ("연습", "practice", "practise", "rehearse"),
    "drop": ("drop", "drop off", "내려주"),
    "check_in": ("check in", "follow up"),
    "measure": ("재", "측정", "measure"),
    "exchange": ("환전", "exchange"),
    "confirm": ("확정", "confirm", "finalize", "finalise"),
    "start": ("시작", "start", "begin"),
    "invite": ("초대", "invite"),
    "cook": ("요리", "만들", "cook"),
    "service": ("service",),
}  # fmt: skip
# Words that carry no action of their own ("do a backup", "get it renewed", "갖다 버리기").
LIGHT_WORDS: frozenset[str] = frozenset({
    "do", "get", "grab", "have", "make sure", "try", "하", "되", "두", "놓", "오", "갖다", "가져다",
    "해", "해두", "해놓",
})  # fmt: skip

# Undoing words: one side undoes what the other does ("예약" vs "예약 취소").
UNDO_WORDS: tuple[str, ...] = (
    "취소", "해지", "철회", "반납", "환불", "탈퇴", "해약", "반품 취소", "그만두", "cancel",
    "unsubscribe", "withdraw", "refund", "decline", "leave", "quit", "revoke", "undo",
    "call off", "back out", "opt out", "drop out", "return", "terminate",
)  # fmt: skip

# Everyday to-do verbs beyond the action classes, for the judge's pre-filter (`cues`): a clause
# that opens with one of these ("walk the dog") or a Korean word that holds one ("요금제 변경")
# may be a to-do.
TODO_VERBS: tuple[str, ...] = (
    "변경", "수강", "커트", "해결", "처리", "add", "download", "deal", "wax", "walk", "scan",
    "repot", "vacuum", "shred", "iron", "fold", "sweep", "paint", "lock", "unlock", "enable",
    "disable", "push", "pull", "reschedule", "feed", "mow", "water", "wrap", "bake", "pack",
)  # fmt: skip

# ---- English idioms, rewritten to one plain form before anything else ------------------------

# (phrase with {x} for one word, plain form). Applied to casefolded, apostrophe-free text.
EN_IDIOMS: tuple[tuple[str, str], ...] = (
    ("return {x}s call", "call {x} back"),
    ("return {x} call", "call {x} back"),
    ("get back to {x}", "reply to {x}"),
    ("take {x} back", "return {x}"),
    ("take back", "return"),
    ("bring back", "return"),
    ("drop {x} off", "drop off {x}"),
    ("pick {x} up", "pick up {x}"),
    ("print {x} out", "print out {x}"),
    ("fill {x} out", "fill out {x}"),
    ("hand {x} in", "hand in {x}"),
    ("turn {x} in", "turn in {x}"),
    ("sign up for", "sign up"),
    ("back up", "backup"),
    ("do a backup of", "backup"),
    ("take {x} in for a service", "service {x}"),
    ("get {x} serviced", "service {x}"),
    ("by close of business", "by eod"),
    ("close of business", "eod"),
    ("end of business", "eod"),
    ("end of the day", "eod"),
    ("end of day", "eod"),
    ("end of the month", "eom"),
    ("end of month", "eom"),
    ("first thing tomorrow", "tomorrow morning"),
    ("make an appointment", "book appointment"),
    ("make a reservation", "book reservation"),
    ("make {x} appointment", "book {x} appointment"),
    ("make {x} reservation", "book {x} reservation"),
    ("make a booking", "book"),
)

# English function words that never tell two promises apart.
EN_STOPWORDS: frozenset[str] = frozenset({
    "a", "an", "the", "to", "for", "of", "on", "in", "at", "by", "my", "our", "your", "their",
    "his", "her", "its", "me", "we", "i", "you", "it", "this", "that", "these", "those", "please",
    "just", "with", "from", "about", "and", "or", "up", "out", "off", "some", "all", "again",
    "new", "back", "before", "after", "until", "till", "due", "so", "be", "is", "are",
    "need", "needs", "must", "should", "will", "have", "has", "remember",
})  # fmt: skip
# Irregular English forms → lemma (regular -s/-es/-ed/-ing are stripped by rule).
EN_LEMMAS: Mapping[str, str] = {
    "sent": "send", "bought": "buy", "paid": "pay", "wrote": "write", "written": "write",
    "got": "get", "gotten": "get", "went": "go", "gone": "go", "made": "make", "took": "take",
    "taken": "take", "gave": "give", "given": "give", "met": "meet", "told": "tell",
    "sold": "sell", "left": "leave", "children": "child", "kids": "kid", "passes": "pass",
    "copies": "copy", "batteries": "battery", "notes": "note",
    # Nouns in -ing stay nouns ("the parking permit" is no "park").
    "meeting": "meeting", "wedding": "wedding", "building": "building", "morning": "morning",
    "evening": "evening", "parking": "parking", "booking": "booking", "training": "training",
    "clothing": "clothing", "housing": "housing", "briefing": "briefing", "painting": "painting",
    "recording": "recording", "offering": "offering", "ceiling": "ceiling", "hearing": "hearing",
    "shopping": "shopping", "cleaning": "cleaning", "funding": "funding", "pricing": "pricing",
}  # fmt: skip

# Verbs that end a Korean compound ("결재받기" = 결재 받기, "예약시키기"): split off when two or
# more syllables remain.
KO_COMPOUND_VERBS: tuple[str, ...] = ("받", "시키", "드리", "당하")

# Korean filler words: no object, no action, no fact.
KO_FILLERS: frozenset[str] = frozenset({
    "그건", "그거", "이건", "이거", "저건", "저거", "그것", "이것", "그냥", "이제", "좀", "다",
    "꼭", "잘", "빨리", "얼른", "미리", "일단", "제발", "한번", "같이", "함께", "더", "이상",
    "안에", "까지", "중에", "중", "전에", "때", "쯤", "것", "거", "및", "가서", "좀더",
})  # fmt: skip

# ---- recipients ------------------------------------------------------------------------------

# Words that name a person by role or family (compared as recipients even without a particle).
PERSON_WORDS: frozenset[str] = frozenset({
    "엄마", "아빠", "할머니", "할아버지", "아내", "남편", "동생", "누나", "언니", "형", "오빠",
    "삼촌", "이모", "고모", "외삼촌", "장모님", "장인어른", "시어머니", "시아버지", "아들", "딸",
    "사촌", "친구", "mom", "dad", "grandma", "grandpa", "wife", "husband", "brother", "sister",
    "uncle", "aunt", "son", "daughter", "boss", "manager", "landlord", "teacher", "professor",
})  # fmt: skip
# A word ending in 님 is a person addressed with a title (팀장님, 대표님, 교수님).
KO_TITLE_SUFFIX = "님"
# Capitalised English words that are no names.
EN_NOT_NAMES: frozenset[str] = frozenset({
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue",
    "wed", "thu", "fri", "sat", "sun", "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december", "jan", "feb", "mar",
    "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "eod", "eom", "asap", "pr",
    "q1", "q2", "q3", "q4", "pdf", "ok", "it", "hr", "ceo", "cto", "pm", "am", "i",
})  # fmt: skip

# ---- facts -----------------------------------------------------------------------------------

# Units that make a number an amount of money (after the number, or a currency sign before).
MONEY_UNITS: tuple[str, ...] = (
    "만원",
    "천원",
    "억원",
    "원",
    "만",
    "천",
    "억",
    "달러",
    "불",
    "won",
    "krw",
    "usd",
    "dollar",
    "buck",
    "eur",
    "euro",
)
CURRENCY_SIGNS = "$₩€£¥"
# English number words read as counts ("two copies").
EN_NUMBER_WORDS: Mapping[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "a dozen": 12,
}  # fmt: skip
# Korean native numbers before a counter ("세 장", "두 명").
KO_NUMBER_WORDS: Mapping[str, int] = {
    "한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9,
    "열": 10,
}  # fmt: skip
# Counters: a number with one of these is a count, never a date or a time.
KO_COUNTERS: tuple[str, ...] = (
    "일차", "번째", "장", "명", "개", "부", "권", "건", "병", "통", "곳", "잔", "대", "벌",
    "켤레", "마리", "박스", "세트", "인분", "번", "회", "차", "쪽", "페이지", "줄", "분기",
)  # fmt: skip

# ---- half of the day, periods ------------------------------------------------------------------

HALF_WORDS: Mapping[str, str] = {
    "오전": "am", "아침": "am", "새벽": "am", "morning": "am", "오후": "pm", "저녁": "pm",
    "밤": "pm", "afternoon": "pm", "evening": "pm", "tonight": "pm", "night": "pm",
}  # fmt: skip

# ---- the judge's own voice ---------------------------------------------------------------------

# A candidate that opens like an assistant's reply is the model talking, not the person's promise
# ("Sure, I can give you a fact about cats"). Matched at the start of the normalised description.
ASSISTANT_OPENERS: tuple[str, ...] = (
    "sure", "okay", "ok", "of course", "certainly", "absolutely", "here is", "heres",
    "here are", "happy to", "as an ai", "i can give", "i can tell", "i can help", "i can provide",
    "great question", "no problem", "알겠습니다", "물론", "네 알겠", "좋습니다", "좋아요 제가",
    "도와드릴게요", "말씀드릴게요", "알려드릴게요",
)  # fmt: skip

# ---- opposites -----------------------------------------------------------------------------

# Words that undo or reverse each other: one side with one and the other with its opposite are
# two promises whatever the cosine ("attend"/"skip" the board meeting, "upload"/"download" the
# photos, "to"/"from" the server). Korean stems as `normalise.read_words` leaves them ("켜기" →
# 켜, "내려받기" → 내려 + 받), English lemmas. Read by `near_miss` as the `opposite` field.
OPPOSITES: tuple[tuple[str, str], ...] = (
    ("켜", "끄"), ("켜", "꺼"), ("열", "닫"), ("열", "잠그"), ("참석", "불참"), ("참석", "빠지"),
    ("참가", "불참"), ("가", "오"), ("올리", "내리"), ("올리", "내려"), ("업로드", "다운로드"),
    ("보내", "받"), ("싣", "내리"), ("빌려주", "빌리"), ("사", "팔"), ("구매", "판매"),
    ("추가", "삭제"), ("추가", "빼"), ("넣", "빼"), ("시작", "중단"), ("시작", "멈추"),
    ("시작", "종료"), ("입금", "출금"), ("가입", "탈퇴"), ("잠그", "풀"), ("채우", "비우"),
    ("늘리", "줄이"), ("입고", "출고"), ("수출", "수입"), ("켜두", "꺼두"),
    ("attend", "skip"), ("attend", "miss"), ("upload", "download"), ("send", "receive"),
    ("open", "close"), ("add", "remove"), ("start", "stop"), ("start", "end"), ("buy", "sell"),
    ("lend", "borrow"), ("lock", "unlock"), ("enable", "disable"), ("on", "off"),
    ("push", "pull"), ("to", "from"), ("into", "out"), ("import", "export"),
    ("increase", "decrease"), ("raise", "lower"), ("deposit", "withdraw"), ("load", "unload"),
    ("pack", "unpack"), ("accept", "decline"), ("accept", "reject"), ("plug", "unplug"),
    ("hire", "fire"), ("include", "exclude"), ("show", "hide"), ("install", "uninstall"),
    ("mount", "unmount"), ("arrive", "leave"), ("come", "go"), ("turn on", "turn off"),
    ("switch on", "switch off"), ("check in", "check out"), ("log in", "log out"),
    ("sign in", "sign out"), ("pick up", "drop off"),
)  # fmt: skip
