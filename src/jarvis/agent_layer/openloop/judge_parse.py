"""Parse the AGENDA judge's answer into a `JudgeFrame`. Never raises; odd lines are ignored.

The format the judge prompt asks for, one item per line::

    새 약속:
    - 보고서 보내기 @2026-10-16 15:00 (근거: 내일 오후 3시까지 보고서 보내야 해)
    - 로그 확인하기 (근거: 배포 전에 로그 좀 확인해줘)
    닫기: [1], [3]

- A new loop is ``설명 [@YYYY-MM-DD HH:MM] [(근거: 입력 구절)]``; the due and the evidence are
  optional. Also accepted: ``(evidence: …)`` / ``(source: …)``, a missing ``)``, full-width
  brackets and colons, ``@YYYY-MM-DD`` alone (due at 18:00, inferred), a ``T`` between date
  and time, bullets (``-``, ``*``, ``•``, ``1.``, ``1)``) and quotes around the evidence. A
  due that is no valid date is dropped, the loop kept. The due is wall time in the user's
  timezone.
- Loops to close are given by the numbers they were shown with: ``닫기: [1], [3]``,
  ``close: 1, 3``, ``closed_loops: [2]``; or such a header alone with ``[2] …`` lines under it.
  When a closing line has bracketed numbers only those count, so ``닫기: [1] 보고서 2부`` is 1.
  A closing line with no number is a phrase (seed 001: "번호(또는 문구)"), ``닫기: 보고서 보내기``;
  it closes the one open loop it points at, never several (`dismissal.phrase_target`).
- Headers: new ``새 약속``, ``새로운 약속``, ``약속``, ``new``, ``new loops``, ``open_loops``;
  close ``닫기``, ``닫을 약속``, ``closed``, ``close``, ``closed_loops``, ``done``. Lines before
  any header are new loops. Under an unknown header alone on its line (``분석:``) nothing is
  read until the next known header.
- Ignored: empty lines, ``없음`` / ``none`` / ``-``, and ``[n] …`` lines outside the closing
  section (the judge echoing the numbered open loops it was shown).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, time, tzinfo
from typing import Literal

from jarvis.agent_layer.openloop.deadline import DEFAULT_DUE_TIME, parse_deadline
from jarvis.agent_layer.openloop.openloop_types import CandidateLoop, JudgeFrame

_Section = Literal["new", "closed", "other"]

_NEW_HEADERS = frozenset({"새 약속", "새로운 약속", "약속", "new", "new loops", "open_loops"})
_CLOSE_HEADERS = frozenset({"닫기", "닫을 약속", "closed", "close", "closed_loops", "done"})
_HEADER_RE = re.compile(r"^(?P<name>[^\W\d][\w ]{0,20}?)\s*:\s*(?P<rest>.*)$")
_BULLET_RE = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)])\s+")
_ECHO_RE = re.compile(r"^\[\d+\]")
_NOTHING = frozenset({"", "-", "없음", "(없음)", "none", "(none)", "n/a"})
# The closing parenthesis is optional: small models often stop right after the quote.
_EVIDENCE_RE = re.compile(r"\(\s*(?:근거|evidence|source)\s*:\s*(?P<text>.*?)\s*\)?\s*$", re.I)
_DUE_RE = re.compile(
    r"@\s*(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?:[ T]+(?P<hh>\d{1,2}):(?P<mm>\d{2}))?"
)
_QUOTES = "\"'“”‘’「」『』"


def parse_judge_output(text: str, tz: tzinfo) -> JudgeFrame:
    frame = JudgeFrame()
    section: _Section = "new"
    # Full-width brackets and colons are folded to ASCII first (NFKC), as small models mix them.
    for raw in unicodedata.normalize("NFKC", text).splitlines():
        line = _BULLET_RE.sub("", raw).strip().strip("*`").strip()
        header = _HEADER_RE.match(line)
        # A known header, or an unknown one alone on its line ("분석:"), starts a section;
        # "참고: x" with content after an unknown name stays a line of the current section.
        if header is not None and (_section(header["name"]) != "other" or not header["rest"]):
            section = _section(header["name"])
            line = header["rest"].strip()
        if section == "closed":
            numbers = _numbers(line)
            frame.closed += [n for n in dict.fromkeys(numbers) if n not in frame.closed]
            phrase = line.strip(_QUOTES + " []")
            named = phrase.lower() not in _NOTHING and phrase not in frame.closed_phrases
            if not numbers and named:
                frame.closed_phrases.append(phrase)
        elif section == "new" and (candidate := _candidate(line, tz)) is not None:
            frame.new.append(candidate)
    return frame


def _section(name: str) -> _Section:
    key = " ".join(name.lower().split())
    if key in _NEW_HEADERS:
        return "new"
    if key in _CLOSE_HEADERS:
        return "closed"
    return "other"


def _numbers(line: str) -> list[int]:
    bracketed = re.findall(r"\[(\d+)\]", line)
    found = bracketed or re.findall(r"(?<![\w.:])(\d+)번?(?![\w.:])", line)
    return [int(n) for n in found]


def _candidate(line: str, tz: tzinfo) -> CandidateLoop | None:
    if line.lower() in _NOTHING or _ECHO_RE.match(line):
        return None
    evidence = None
    if (found := _EVIDENCE_RE.search(line)) is not None:
        evidence = found["text"].strip(_QUOTES + " ") or None
        line = line[: found.start()]
    due_ms, inferred = None, False
    if (due := _DUE_RE.search(line)) is not None:
        due_ms, inferred = _due_ms(due, tz)
        line = line[: due.start()] + line[due.end() :]
    description = " ".join(line.split()).strip(_QUOTES + " ")
    if description.lower() in _NOTHING or not any(c.isalnum() for c in description):
        return None
    return CandidateLoop(
        description=description, evidence=evidence, due_ms=due_ms, due_inferred=inferred
    )


def _due_ms(m: re.Match[str], tz: tzinfo) -> tuple[int | None, bool]:
    try:
        day = date(int(m["y"]), int(m["m"]), int(m["d"]))
        at = time(int(m["hh"]), int(m["mm"])) if m["hh"] else DEFAULT_DUE_TIME
    except ValueError:
        return None, False
    return _ms(datetime.combine(day, at, tzinfo=tz)), m["hh"] is None


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def fill_due(frame: JudgeFrame, user_input: str, now: datetime, tz: tzinfo) -> JudgeFrame:
    """Dues come from the user's words only.

    The judge drops the ``@`` due about half the time (seed 001): each candidate without one is
    read from its own evidence first (the input phrase it came from), then its description; the
    whole input only when the frame has a single candidate, so "보고서는 내일, 회의 준비는
    금요일까지" does not give both loops the first deadline. ▲ A deadline found that way counts
    only when its words are in the user's input (model text never sets a due), and a judge's
    ``@`` due is kept only when the user's words state some deadline: a junk item from model
    text got a due before. Each candidate's ``due_source`` says where its due came from.
    """
    stated = parse_deadline(user_input, now, tz)
    whole = user_input if len(frame.new) == 1 else None
    filled = [_filled(c, user_input, whole, stated is not None, now, tz) for c in frame.new]
    return frame.model_copy(update={"new": filled})


def _filled(
    candidate: CandidateLoop,
    user_input: str,
    whole_input: str | None,
    user_states_a_deadline: bool,
    now: datetime,
    tz: tzinfo,
) -> CandidateLoop:
    if candidate.due_ms is not None:
        if user_states_a_deadline:
            return candidate.model_copy(update={"due_source": "judge @, user stated a deadline"})
        return candidate.model_copy(
            update={"due_ms": None, "due_inferred": False, "due_source": _DROPPED}
        )
    said = _squeezed(user_input)
    for source in (candidate.evidence, candidate.description, whole_input):
        found = parse_deadline(source, now, tz) if source else None
        if found is not None and _squeezed(found.matched) in said:
            update = {
                "due_ms": _ms(found.due),
                "due_inferred": found.inferred,
                "due_source": f"user words: {found.matched}",
            }
            return candidate.model_copy(update=update)
    return candidate


_DROPPED = "judge @ dropped: the user's words state no deadline"


def _squeezed(text: str) -> str:
    return "".join(unicodedata.normalize("NFC", text).casefold().split())
