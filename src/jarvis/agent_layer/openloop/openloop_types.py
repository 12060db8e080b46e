"""Open loops (AGENDA): the model and the pure judgement rules of seed 001.

Every store (memory, JSONL, Postgres) decides with these functions, so one conversation gives the
same AGENDA on each. Embedding cosines, clocks and ids are computed at the boundary and passed in.

Text is compared after one normalisation, ``normalise``: NFC, casefold, punctuation read as a
space, apostrophes dropped, whitespace collapsed. ``char_bigrams`` are the bigrams of that text
with the whitespace removed ("공백을 뺀 글자 bigram"); grounded, the dismissal overlap and the
Jaccard rule all use them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Literal

from pydantic import BaseModel, Field

LoopStatus = Literal["open", "done", "dismissed", "expired"]
MatchRule = Literal["equal", "contained", "cosine", "jaccard"]
SkipReason = Literal["empty", "ungrounded", "closed_in_frame", "duplicate"]
CloseReason = Literal["judge_closed", "dismissal_words", "due_passed", "max_age"]


class OpenLoop(BaseModel):
    id: str
    agent_id: str
    user_id: str
    session_id: str
    description: str
    evidence: str = ""
    due_ms: int | None = None
    due_inferred: bool = False
    status: LoopStatus = "open"
    created_ms: int
    updated_ms: int
    closed_ms: int | None = None
    closed_reason: str | None = None


class OpenLoopConfig(BaseModel):
    expire_after_sec: int = Field(6 * 3600, ge=0, description="Expire this long after the due.")
    max_age_sec: int = Field(7 * 86400, ge=0, description="Expire loops without a due this old.")
    cosine_threshold: float = Field(0.85, ge=0, le=1, description="bge-m3 same-loop cosine.")
    jaccard_threshold: float = Field(0.4, ge=0, le=1, description="Char-bigram Jaccard.")
    contain_min_chars: int = Field(6, ge=1, description="Shortest side that may be contained.")
    grounded_evidence_ratio: float = Field(0.5, ge=0, le=1)
    grounded_description_ratio: float = Field(0.2, ge=0, le=1)
    dismissal_overlap: float = Field(0.5, ge=0, le=1, description="Shorter-side bigram overlap.")


class CandidateLoop(BaseModel):
    """A loop the AGENDA judge wrote; nothing is stored until `apply_judgement` admits it."""

    description: str
    evidence: str | None = None
    due_ms: int | None = None
    due_inferred: bool = False


class JudgeFrame(BaseModel):
    """One judge answer: new loops, and the 1-based numbers of shown loops to close."""

    new: list[CandidateLoop] = Field(default_factory=list)
    closed: list[int] = Field(default_factory=list)


class LoopScope(BaseModel):
    """Whose conversation the new loops belong to."""

    agent_id: str
    user_id: str
    session_id: str


class SkippedCandidate(BaseModel):
    candidate: CandidateLoop
    reason: SkipReason
    loop_id: str | None = None  # the loop it matched, for closed_in_frame / duplicate


class AgendaChange(BaseModel):
    """What one judge frame changed; callers emit `agenda_changed` only when `changed`."""

    created: list[OpenLoop] = Field(default_factory=list)
    merged: list[OpenLoop] = Field(default_factory=list)
    closed: list[OpenLoop] = Field(default_factory=list)
    skipped: list[SkippedCandidate] = Field(default_factory=list)
    unknown_indices: list[int] = Field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.created or self.merged or self.closed)


# ---- text ----------------------------------------------------------------------------------

_APOSTROPHES = str.maketrans("", "", "'’")
_FILLER = frozenset({
    "그건", "그거", "이건", "이거", "저건", "저거", "그것", "이것", "그냥", "이제", "좀", "다",
    "돼", "됐어", "a", "an", "the", "it", "this", "that", "to", "for", "of", "on", "in", "at",
    "by", "my", "our", "your", "me", "we", "i", "you", "please", "just", "now", "더", "이상",
    "is", "are", "was", "were", "be", "been", "got", "any", "anymore", "more", "already",
})  # fmt: skip


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFC", text).casefold().translate(_APOSTROPHES)
    spaced = "".join(" " if unicodedata.category(c).startswith("P") else c for c in text)
    return " ".join(spaced.split())


def _compact(text: str) -> str:
    return normalise(text).replace(" ", "")


def char_bigrams(text: str) -> frozenset[str]:
    compact = _compact(text)
    if len(compact) == 1:
        return frozenset({compact})
    return frozenset(compact[i : i + 2] for i in range(len(compact) - 1))


def _is_hangul(char: str) -> bool:
    return "가" <= char <= "힣"


def _coverage(part: frozenset[str], whole: frozenset[str]) -> float:
    return len(part & whole) / len(part) if part else 0.0


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Overlap measured on the shorter side."""
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


# ---- grounded ------------------------------------------------------------------------------


def grounded(description: str, evidence: str | None, user_input: str, cfg: OpenLoopConfig) -> bool:
    """The loop comes from this input: its evidence (≥ 50 %) or else its wording (≥ 20 %)."""
    source = char_bigrams(user_input)
    if evidence and _coverage(char_bigrams(evidence), source) >= cfg.grounded_evidence_ratio:
        return True
    return _coverage(char_bigrams(description), source) >= cfg.grounded_description_ratio


# ---- same loop -----------------------------------------------------------------------------


def same_loop(a: str, b: str, cfg: OpenLoopConfig, cosine: float | None = None) -> bool:
    return loop_match(a, b, cfg, cosine) is not None


def loop_match(
    a: str, b: str, cfg: OpenLoopConfig, cosine: float | None = None
) -> MatchRule | None:
    """Which seed rule makes two loop descriptions one loop, or None.

    ▲ A near miss (a different explicit time, date, day, number, amount, half of the day, or a
    negation on one side only) is never the same loop, whatever the cosine: embeddings score
    "보고서 3시까지" vs "보고서 5시까지" 0.97. The character rules also refuse a substituted
    object or recipient ("팀장님께 보고서" vs "팀장님께 신청서"); the cosine rule does not, as
    bge-m3 keeps such pairs ≤ 0.80 and does merge rewordings like "목록" → "최종 리스트".
    """
    if _facts_conflict(_facts(a), _facts(b)) or _negated(a) != _negated(b):
        return None
    ca, cb = _compact(a), _compact(b)
    if not ca or not cb:
        return None
    if ca == cb:
        return "equal"
    substituted = _substituted(a, b)
    short, long = sorted((ca, cb), key=len)
    if len(short) >= cfg.contain_min_chars and short in long and not substituted:
        return "contained"
    if cosine is not None and cosine >= cfg.cosine_threshold:
        return "cosine"
    if not substituted and _jaccard(char_bigrams(a), char_bigrams(b)) >= cfg.jaccard_threshold:
        return "jaccard"
    return None


_NUMBER_RE = re.compile(
    r"(?P<cur>[$₩€£¥])?\s*(?P<num>\d+(?:,\d{3})*(?:\.\d+)?)(?::(?P<mm>\d{2}))?"
    r"\s*(?P<unit>[a-z]+|[가-힣]+)?"
)
_MONEY_UNITS = ("원", "만원", "천원", "억", "달러", "won", "krw", "usd", "dollar", "buck", "eur")
_HALF_WORDS = {
    "오전": "am", "아침": "am", "새벽": "am", "morning": "am", "오후": "pm", "저녁": "pm",
    "밤": "pm", "afternoon": "pm", "evening": "pm", "tonight": "pm", "night": "pm",
}  # fmt: skip
_HALF_RE = re.compile(
    r"(?:(?<![가-힣])|(?<=오늘|내일|모레))(오전|오후|아침|저녁|밤|새벽)"
    r"|\b(morning|afternoon|evening|tonight|night)\b"
)
_DAY_WORDS = {
    "내일모레": "2", "dayaftertomorrow": "2", "오늘": "0", "today": "0", "tonight": "0",
    "내일": "1", "tomorrow": "1", "tmr": "1", "tmrw": "1", "모레": "2", "글피": "3",
}  # fmt: skip
_DAY_RE = re.compile(
    r"내일\s*모레|\bday after tomorrow\b|오늘|\btoday\b|\btonight\b|내일|\btomorrow\b"
    r"|\btmrw?\b|모레|글피"
)
_KO_WEEKDAYS, _EN_WEEKDAYS = "월화수목금토일", ("mo", "tu", "we", "th", "fr", "sa", "su")
_WEEKDAY_RE = re.compile(
    r"([월화수목금토일])(?:요일|욜)|\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*day\b"
    r"|\b(mon|tue|thu|fri)\b"
)
_WEEK_RE = re.compile(r"(?<![가-힣])(이번|다음|담|다다음)\s*주(?!제)|\b(this|next)\s+week\b")
_WEEK_VALUES = {"이번": "0", "this": "0", "다음": "1", "담": "1", "next": "1", "다다음": "2"}
# Undoing words count too: "치과 예약하기" and "치과 예약 취소하기" are opposite promises.
_NEGATION_RE = re.compile(
    r"(?<![가-힣])(?:안|못)\s|(?<!까)지\s*(?:않|말|마)(?!감)|않기|말기|취소|철회"
    r"|\b(?:not|never|dont|doesnt|didnt|wont|cant|cannot|cancel\w*|undo)\b"
)
# "잊지 말고 보내기" / "don't forget to send" are reminders: neither negation nor dismissal.
_REMINDER_RE = re.compile(
    r"(?:잊|빠뜨리|놓치|까먹)지\s*(?:말|마)\S*|\bdo(?:n'?t|\s+not)\s+forget\b|\bnever\s+forget\b",
    re.IGNORECASE,
)


def _negated(text: str) -> bool:
    return bool(_NEGATION_RE.search(normalise(_REMINDER_RE.sub(" ", text))))


def _facts(text: str) -> dict[str, frozenset[str]]:
    """Explicit values by kind: times, dates and days, counts, amounts, half of the day."""
    low = unicodedata.normalize("NFC", text).casefold()
    found: list[tuple[str, str]] = []
    for m in _NUMBER_RE.finditer(low):
        found += _number_facts(m)
    found += [("half", _HALF_WORDS[m[1] or m[2]]) for m in _HALF_RE.finditer(low)]
    found += [("day", _DAY_WORDS[re.sub(r"\s", "", m[0])]) for m in _DAY_RE.finditer(low)]
    found += [("weekday", _weekday(m)) for m in _WEEKDAY_RE.finditer(low)]
    found += [("week", _WEEK_VALUES[m[1] or m[2]]) for m in _WEEK_RE.finditer(low)]
    facts: dict[str, set[str]] = {}
    for kind, value in found:
        facts.setdefault(kind, set()).add(value)
    return {kind: frozenset(values) for kind, values in facts.items()}


def _weekday(m: re.Match[str]) -> str:
    return str(_KO_WEEKDAYS.index(m[1]) if m[1] else _EN_WEEKDAYS.index((m[2] or m[3])[:2]))


def _number_facts(m: re.Match[str]) -> list[tuple[str, str]]:
    num, unit = m["num"].replace(",", ""), m["unit"] or ""
    if m["cur"] or unit.startswith(_MONEY_UNITS):
        return [("money", num)]
    if unit.startswith("시간"):
        return [("hours", num)]
    if m["mm"] or unit.startswith("시") or unit in ("am", "pm"):
        # "3pm", "15:00" and "오후 3시" are one time: the hour on a 12-hour dial plus a half.
        hour = int(float(num))
        half = "pm" if hour >= 13 or unit == "pm" else "am" if unit == "am" else ""
        time = ("time", f"{hour % 12}:{m['mm'] or '00'}")
        return [time, ("half", half)] if half else [time]
    for prefix, kind in (("분", "minute"), ("일", "date"), ("월", "month"), ("년", "year")):
        if unit.startswith(prefix):
            return [(kind, num)]
    if unit in ("st", "nd", "rd", "th"):
        return [("date", num)]
    return [(f"n:{unit[:1] if _is_hangul(unit[:1]) else unit}", num)]


def _facts_conflict(a: dict[str, frozenset[str]], b: dict[str, frozenset[str]]) -> bool:
    """A kind both sides state with different values; a one-sided fact is elaboration."""
    return any(kind in b and values != b[kind] for kind, values in a.items())


def _words(text: str) -> list[str]:
    return [w for w in normalise(text).split() if w not in _FILLER and not re.search(r"\d", w)]


def _related(word: str, others: Iterable[str]) -> bool:
    """Same stem: one holds the other ("보고서를"/"분기보고서") or a common start ("공유하기")."""
    stem = 2 if _is_hangul(word[:1]) else 4
    return any(word in o or o in word or _common_prefix(word, o) >= stem for o in others)


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _substituted(a: str, b: str) -> bool:
    """Each side has a word the other lacks with no shared stem: another object or recipient."""
    wa, wb = _words(a), _words(b)
    only_a = [w for w in wa if w not in wb]
    only_b = [w for w in wb if w not in wa]
    unrelated_a = any(not _related(w, only_b) for w in only_a)
    return unrelated_a and any(not _related(w, only_a) for w in only_b)


def merge_loop(existing: OpenLoop, incoming: CandidateLoop | OpenLoop, now_ms: int) -> OpenLoop:
    """Only a new due date changes an existing loop; a guessed due never replaces a stated one."""
    if incoming.due_ms is None or incoming.due_ms == existing.due_ms:
        return existing
    if incoming.due_inferred and existing.due_ms is not None and not existing.due_inferred:
        return existing
    due = {"due_ms": incoming.due_ms, "due_inferred": incoming.due_inferred}
    return existing.model_copy(update={**due, "updated_ms": now_ms})


# ---- dismissal -----------------------------------------------------------------------------

_DISMISSAL_RE = re.compile(
    "|".join(
        [
            r"취소", r"철회", r"무산", r"없던\s*일", r"없어졌", r"(?<![가-힣])안\s*해도",
            r"(?<![가-힣])안\s*챙겨", r"(?<![가-힣])안\s*\S+도\s*(?:돼|되|괜찮)", r"하지\s*마",
            r"(?<!까)지\s*마(?:라|요|세요)?(?=$|[\s,.!?~])", r"(?<!까)지\s*말(?:아|자|고|기)",
            r"그만\s*(?:해|하|둬|두)", r"필요\s*없", r"잊어\s*(?:버려|줘|도)",
            r"\bcancel(?:l?ed|s|ling)?\b", r"\bcall(?:ed)?\s+(?:it\s+)?off\b",
            r"\bnever\s*mind\b", r"\bno\s+need\b", r"\bdo(?:n'?t|\s+not)\s+(?:need|have)\s+to\b",
            r"\bdon'?t\s+bother\b", r"\bnot\s+(?:necessary|needed)\b", r"\bunnecessary\b",
            r"\bno\s+longer\s+need", r"\bforget\s+(?:it|about)\b", r"\bdrop\s+it\b", r"\bscrap\b",
            # Bare "stop" would also catch "stop by the bank".
            r"\bstop\s+(?:it|that|this|tracking|reminding)\b",
        ]
    ),
    re.IGNORECASE,
)  # fmt: skip
# Read per clause: "회의는 취소됐고 보고서는 보내야 해" cancels the meeting, not the report.
_CLAUSE_SPLIT_RE = re.compile(
    r"[.!?;\n]+|\s(?:하지만|그런데|근데|대신|but|instead|however|though)\s"
    r"|(?<=[됐했었았였])고\s|(?:지만|는데)\s",
    re.IGNORECASE,
)


def find_dismissed(
    user_input: str, open_loops: Sequence[OpenLoop], cfg: OpenLoopConfig
) -> list[str]:
    """Ids of open loops the user's dismissal words point at (seed: 0.5 shorter-side overlap).

    The words that carry the dismissal ("취소됐어", "안 챙겨도 돼") and fillers ("그건") are
    dropped before measuring: they say "cancel", not which loop, so "그건 취소됐어" closes
    nothing and "보고서는 취소됐어" closes the report. ▲ A clause whose explicit time or date
    differs from the loop's does not point at it. Completion phrases ("보냈어", "done") are
    never read here; only the judge closes those, as they read like questions ("보냈어?").
    """
    pointers = _dismissal_pointers(user_input)
    return [
        loop.id for loop in open_loops if loop.status == "open" and _points_at(pointers, loop, cfg)
    ]


def _points_at(pointers: list[str], loop: OpenLoop, cfg: OpenLoopConfig) -> bool:
    target, facts = char_bigrams(loop.description), _facts(loop.description)
    return any(
        _overlap(char_bigrams(p), target) >= cfg.dismissal_overlap
        and not _facts_conflict(_facts(p), facts)
        for p in pointers
    )


def _dismissal_pointers(user_input: str) -> list[str]:
    """Per clause with a dismissal word: the rest of its words, which may name the loop."""
    text = _REMINDER_RE.sub(" ", unicodedata.normalize("NFC", user_input).replace("’", "'"))
    pointers = []
    for clause in _CLAUSE_SPLIT_RE.split(text):
        spans = [m.span() for m in _DISMISSAL_RE.finditer(clause)]
        if spans:
            pointers.append(" ".join(_words_outside(clause, spans)))
    return pointers


def _words_outside(clause: str, spans: list[tuple[int, int]]) -> list[str]:
    words = [(m.start(), m.end(), m[0]) for m in re.finditer(r"\S+", clause)]
    kept = [w for s, e, w in words if not any(s < se and ss < e for ss, se in spans)]
    return [w for w in kept if normalise(w) not in _FILLER]


# ---- applying one judge frame --------------------------------------------------------------


def numbered(open_loops: Iterable[OpenLoop]) -> list[OpenLoop]:
    """Open loops newest first: the order (and numbers) the judge and the thought see."""
    return sorted((lp for lp in open_loops if lp.status == "open"), key=_newest_first)


def _newest_first(loop: OpenLoop) -> tuple[int, str]:
    return (-loop.created_ms, loop.id)


def close_loop(loop: OpenLoop, status: LoopStatus, reason: str, now_ms: int) -> OpenLoop:
    closed = {"status": status, "closed_ms": now_ms, "closed_reason": reason}
    return loop.model_copy(update={**closed, "updated_ms": now_ms})


def apply_judgement(
    open_loops: Sequence[OpenLoop],
    judged: JudgeFrame,
    user_input: str,
    now_ms: int,
    cfg: OpenLoopConfig,
    *,
    scope: LoopScope,
    new_id: Callable[[], str],
    cosines: Mapping[tuple[str, str], float] | None = None,
) -> AgendaChange:
    """Apply one judge frame to the loops that were shown to it (numbered as `numbered`).

    Closes the numbered loops (done) and the loops the user's dismissal words point at
    (dismissed, which wins over a number: it is the more exact status), then admits each new
    candidate in the seed's order: grounded in the input, not a loop this frame closed, not an
    open loop (then only its due may change). ``cosines`` maps (candidate description, loop id)
    to the embedding cosine the store computed; missing pairs use the character rules only.
    """
    shown = numbered(open_loops)
    dismissed = set(find_dismissed(user_input, shown, cfg))
    wanted = set(judged.closed)
    change = AgendaChange(unknown_indices=sorted(i for i in wanted if not 1 <= i <= len(shown)))
    for index, loop in enumerate(shown, 1):
        if loop.id in dismissed:
            change.closed.append(close_loop(loop, "dismissed", "dismissal_words", now_ms))
        elif index in wanted:
            change.closed.append(close_loop(loop, "done", "judge_closed", now_ms))
    closed_ids = {loop.id for loop in change.closed}
    frame = _Frame(user_input, now_ms, cfg, scope, new_id, cosines or {}, change)
    frame.active = {loop.id: loop for loop in shown if loop.id not in closed_ids}
    for candidate in judged.new:
        frame.admit(candidate)
    return change


@dataclass
class _Frame:
    """The state of one `apply_judgement` while its candidates are admitted in order."""

    user_input: str
    now_ms: int
    cfg: OpenLoopConfig
    scope: LoopScope
    new_id: Callable[[], str]
    cosines: Mapping[tuple[str, str], float]
    change: AgendaChange
    active: dict[str, OpenLoop] = field(default_factory=dict)

    def admit(self, candidate: CandidateLoop) -> None:
        if not _compact(candidate.description):
            self._skip(candidate, "empty")
        elif not grounded(candidate.description, candidate.evidence, self.user_input, self.cfg):
            self._skip(candidate, "ungrounded")
        elif (closed := self._first_same(candidate, self.change.closed)) is not None:
            self._skip(candidate, "closed_in_frame", closed)
        elif (existing := self._first_same(candidate, self.active.values())) is not None:
            self._merge(candidate, existing)
        else:
            created = _new_loop(candidate, self.scope, self.new_id(), self.now_ms)
            self.active[created.id] = created
            self.change.created.append(created)

    def _skip(
        self, candidate: CandidateLoop, reason: SkipReason, loop: OpenLoop | None = None
    ) -> None:
        loop_id = loop.id if loop is not None else None
        self.change.skipped.append(
            SkippedCandidate(candidate=candidate, reason=reason, loop_id=loop_id)
        )

    def _first_same(self, candidate: CandidateLoop, loops: Iterable[OpenLoop]) -> OpenLoop | None:
        text = candidate.description
        for loop in loops:
            if same_loop(text, loop.description, self.cfg, self.cosines.get((text, loop.id))):
                return loop
        return None

    def _merge(self, candidate: CandidateLoop, existing: OpenLoop) -> None:
        merged = merge_loop(existing, candidate, self.now_ms)
        if merged is existing:
            self._skip(candidate, "duplicate", existing)
            return
        self.active[merged.id] = merged
        # A loop created earlier in this frame stays "created", only with the newer due.
        for bucket in (self.change.created, self.change.merged):
            for i, loop in enumerate(bucket):
                if loop.id == merged.id:
                    bucket[i] = merged
                    return
        self.change.merged.append(merged)


def _new_loop(candidate: CandidateLoop, scope: LoopScope, loop_id: str, now_ms: int) -> OpenLoop:
    return OpenLoop(
        id=loop_id,
        agent_id=scope.agent_id,
        user_id=scope.user_id,
        session_id=scope.session_id,
        description=candidate.description.strip(),
        evidence=(candidate.evidence or "").strip(),
        due_ms=candidate.due_ms,
        due_inferred=candidate.due_inferred,
        created_ms=now_ms,
        updated_ms=now_ms,
    )


# ---- expiry and display --------------------------------------------------------------------


def expire(loops: Iterable[OpenLoop], now_ms: int, cfg: OpenLoopConfig) -> list[OpenLoop]:
    """The open loops that expire now, closed as expired: due + EXPIRE_AFTER has passed, or no
    due and older than MAX_AGE. Both bounds are strict: a loop exactly at one stays open."""
    expired = []
    for loop in loops:
        reason = _expiry_reason(loop, now_ms, cfg) if loop.status == "open" else None
        if reason is not None:
            expired.append(close_loop(loop, "expired", reason, now_ms))
    return expired


def would_expire_on_revive(loop: OpenLoop, now_ms: int, cfg: OpenLoopConfig) -> bool:
    """Reopening this loop would expire it at once (the API answers 409)."""
    return _expiry_reason(loop, now_ms, cfg) is not None


def _expiry_reason(loop: OpenLoop, now_ms: int, cfg: OpenLoopConfig) -> CloseReason | None:
    if loop.due_ms is not None:
        return "due_passed" if now_ms > loop.due_ms + cfg.expire_after_sec * 1000 else None
    return "max_age" if now_ms - loop.created_ms > cfg.max_age_sec * 1000 else None


def format_numbered(open_loops: Iterable[OpenLoop], tz: tzinfo) -> str:
    """`[1] 설명 (기한 2026-10-12 10:00)` lines, newest first, due in the user's timezone."""
    return "\n".join(f"[{i}] {_shown(lp, tz)}" for i, lp in enumerate(numbered(open_loops), 1))


def _shown(loop: OpenLoop, tz: tzinfo) -> str:
    if loop.due_ms is None:
        return loop.description
    due = datetime.fromtimestamp(loop.due_ms / 1000, tz).strftime("%Y-%m-%d %H:%M")
    # The seed's fixed context format for the judge and the thought, not a UI string.
    return f"{loop.description} (기한 {due})"
