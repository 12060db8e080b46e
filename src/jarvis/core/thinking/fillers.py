"""Fillers: one short line while a thought, a slow first round or a slow tool runs (issue 26
item 3).

Code chooses it from what is pending — a thought, the model's first round, or a tool call
("checking `git status` with bash…") — and only when the predicted wait is long: the rolling
median of this model's recent waits, or of this tool's recent run times. At most one per turn;
never the same line as one of the session's last three. A filler is an event only
(`proactive_message {kind: filler}`): never in the history, never shown to the model. A tool
call's argument is shown short and safe (`shown_argument`): one line, no control characters,
secret-looking words hidden with the tool gate's own test (`core/policy/secrets.py`), a URL
without its query, cut at `ARG_CHARS`.
"""

from __future__ import annotations

import re
import shlex
import statistics
from collections import OrderedDict, deque
from collections.abc import Mapping, Sequence
from typing import Any, Literal
from urllib.parse import urlsplit

from jarvis.common.i18n import Language, t
from jarvis.core.policy.secrets import looks_secret, secret_words

Pending = Literal["thought", "first_round"]
LINES_PER_KIND = 4
ARG_CHARS = 40  # the longest argument a filler shows
HIDDEN = "•••"  # what a secret-looking word becomes
_SAMPLES = 20
_SESSIONS = 1024
_KEYS = 256  # waits are kept for at most this many models and tools
# The argument each tool's line names; each has `filler.tool.<tool>` in the catalog (a tool
# not listed gets the generic `filler.tool.other`).
TOOL_ARGUMENT = {
    "bash": "command",
    "read_file": "path",
    "write_file": "path",
    "edit_file": "path",
    "list_dir": "path",
    "glob": "pattern",
    "grep": "pattern",
    "web_search": "query",
    "web_fetch": "url",
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]+")
_TOOL_NAME = re.compile(r"[^A-Za-z0-9_.:-]+")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_SUBCOMMAND = re.compile(r"[a-z][a-z0-9-]{0,30}")


def filler_lines(pending: Pending, lang: Language) -> list[str]:
    return [t(f"filler.{pending}.{i}", lang) for i in range(1, LINES_PER_KIND + 1)]


def choose_filler(
    pending: Pending,
    predicted_wait_sec: float | None,
    threshold_sec: float,
    last_three: Sequence[str],
    lang: Language,
) -> str | None:
    """The filler to show, or None: no evidence of a long wait, or every line was said lately."""
    if predicted_wait_sec is None or predicted_wait_sec < threshold_sec:
        return None
    recent = set(last_three[-3:])
    for line in filler_lines(pending, lang):
        if line not in recent:
            return line
    return None


def tool_key(tool: str) -> str:
    """The waits key of a tool's run times."""
    return f"tool:{tool}"


def tool_keys(tool: str, args: Mapping[str, Any]) -> tuple[str, ...]:
    """Where a call's run time is recorded and its wait predicted, the narrowest first: a bash
    command's program (and its subcommand: `git status`, `npm test`) — bash takes as long as
    what it runs — then the tool as a whole (a command not measured yet)."""
    command = args.get("command") if tool == "bash" else None
    words = command.split()[:8] if isinstance(command, str) else []
    while words and _ASSIGNMENT.match(words[0]):  # `LANG=C git …`: never a key (nor a secret)
        words.pop(0)
    if not words:
        return (tool_key(tool),)
    program = words[0].rpartition("/")[2][:40]
    sub = words[1] if len(words) > 1 and _SUBCOMMAND.fullmatch(words[1]) else ""
    return (f"{tool_key(tool)}:{program} {sub}".rstrip(), tool_key(tool))


def shown_argument(tool: str, value: Any) -> str:
    """A tool call's argument as a filler may show it: one line, no control characters,
    secret-looking words hidden, a URL without its query, at most `ARG_CHARS` ("" for none)."""
    if not isinstance(value, str) or not value.strip():
        return ""
    lines = value.strip().splitlines()
    text = _CONTROL.sub(" ", lines[0]).strip()
    if tool == "web_fetch" and "://" in text:
        parts = urlsplit(text.split()[0])
        text = (parts.hostname or "") + parts.path  # credentials and query left out
    try:
        words = shlex.split(text)
    except ValueError:  # an unclosed quote: plain words
        words = text.split()
    hidden = {*secret_words(words), *(w for w in words if looks_secret(w))}  # and the first word
    for secret in sorted(hidden, key=len, reverse=True):
        text = text.replace(secret, HIDDEN)
    text = " ".join(text.replace("`", "'").split())
    if len(text) > ARG_CHARS or len(lines) > 1:
        text = text[:ARG_CHARS].rstrip() + "…"
    return text


def tool_line(tool: str, args: Mapping[str, Any], lang: Language) -> str:
    """The line for a tool call: the tool's own ("reading notes.md…") with its argument shown
    safe, else the generic one naming the tool."""
    key = TOOL_ARGUMENT.get(tool)
    shown = shown_argument(tool, args.get(key)) if key else ""
    if shown:  # every tool of TOOL_ARGUMENT has its line in the catalog
        return t(f"filler.tool.{tool}", lang, arg=shown)
    name = _TOOL_NAME.sub("", tool)[:ARG_CHARS] or "?"
    return t("filler.tool.other", lang, tool=name)


def choose_tool_filler(
    tool: str,
    args: Mapping[str, Any],
    predicted_wait_sec: float | None,
    threshold_sec: float,
    last_three: Sequence[str],
    lang: Language,
) -> str | None:
    """The filler for a tool call that starts, or None: no evidence the tool is slow, or the
    same line was one of the session's last three."""
    if predicted_wait_sec is None or predicted_wait_sec < threshold_sec:
        return None
    line = tool_line(tool, args, lang)
    return None if line in last_three[-3:] else line


def predicted_wait(samples: Sequence[float]) -> float | None:
    """The median of the recent waits (None before the first)."""
    return statistics.median(samples) if samples else None


class WaitTracker:
    """Rolling waits per key (a model's first token, a model's thought) and each session's last
    fillers; bounded in keys, samples and sessions."""

    def __init__(self) -> None:
        self._waits: OrderedDict[str, deque[float]] = OrderedDict()
        self._said: OrderedDict[str, deque[str]] = OrderedDict()

    def record(self, key: str, seconds: float) -> None:
        if key not in self._waits and len(self._waits) >= _KEYS:
            self._waits.popitem(last=False)  # the key recorded least recently goes
        self._waits.setdefault(key, deque(maxlen=_SAMPLES)).append(seconds)
        self._waits.move_to_end(key)

    def predicted(self, *keys: str) -> float | None:
        """The prediction of the first key with samples (narrowest first)."""
        for key in keys:
            if self._waits.get(key):
                return predicted_wait(self._waits[key])
        return None

    def last_three(self, session_id: str) -> list[str]:
        return list(self._said.get(session_id, ()))

    def said(self, session_id: str, line: str) -> None:
        lines = self._said.setdefault(session_id, deque(maxlen=3))
        lines.append(line)
        self._said.move_to_end(session_id)
        while len(self._said) > _SESSIONS:
            self._said.popitem(last=False)
