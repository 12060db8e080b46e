"""Dangerous commands, the regex layer: patterns that block a bash call before any approval,
even with a rule. The main judgement is on the parsed form (`destructive.find_danger`); this
list is the configurable extra layer (SPEC §7).

API:
- `DEFAULT_DANGEROUS_COMMANDS`: seed 000's list (`rm -rf /`, `sudo`, `curl … | sh`,
  `wget … | sh`, `> /dev/sda`, `mkfs.`, `dd … of=/dev/`, the fork bomb), written so that a word
  only counts where bash would run it: `echo rm -rf /` and `grep "mkfs" notes` are not blocked.
- `DangerousMatcher.compile(patterns)`: case-insensitive, run by RE2 (`google-re2`), whose time
  is linear in the text whatever the pattern (Python's `re` took 7.9 s on a 24 KB `dd dd dd …`
  line and stalled the event loop). A bad regex, or one RE2 cannot run in linear time
  (lookaround, backreference), raises `ValueError` naming it and the setting. `[]` disables.
- `matcher.check(command, analysis=None) -> str | None`: the first matching regex, tried on the
  raw line (heredoc bodies blanked: they are data) and on each parsed simple command re-joined
  with `shlex.join`, so quoting tricks (`s""udo`) do not hide a word. Redirections and pipes
  are only visible in the raw line. All of it is one text, a line each, matched once in
  multi-line mode (`^`/`$` match at each line); a pattern that spans lines can match across two
  commands, which only ever blocks more.

The list is regexes, so `|` means "or": write `curl.*\\|\\s*(ba)?sh`, never `curl | bash`
(which would block every command containing "curl" or "bash").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import re2

from jarvis.core.policy.shell import ShellAnalysis, analyze_shell

SETTING = "JARVIS_SECURITY__DANGEROUS_COMMANDS"
_VERDICTS_KEPT = 4096

_Q = "[\"']?"  # an optional quote: `rm -rf "/"` and `> '/dev/sda'` are still caught
# Where bash would run a word as a command: the line's start, after a separator or an opening
# substitution, and after the wrappers that pass the rest of the line on.
_CMD = (
    r"(?:^|[;&|(){}`\n]|\$\()\s*"
    r"(?:(?:sudo|doas|env|command|exec|nohup|nice|time|timeout\s+\S+)\s+)*(?:\S*/)?"
)
_PIPE_TO_SHELL = r"\|\s*(?:sudo\s+)?(?:\S*/)?(?:ba|da|k|z)?sh\b"
_BLOCK_DEVICE = r"/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|loop|sr|mapper|nbd|mtd)"

DEFAULT_DANGEROUS_COMMANDS: list[str] = [
    # rm of /, /*, ~, ~/* or $HOME whatever the flags (-rf, -fr, -r -f, --recursive ...)
    rf"{_CMD}rm\s+(?:-\S*\s+)*{_Q}(?:/|/\*|~|~/|~/\*|\$HOME/?|\$\{{HOME\}}/?){_Q}(?:\s|$|[;&|)])",
    r"(?:^|[^\w.-])sudo\b",
    rf"{_CMD}curl\b.*{_PIPE_TO_SHELL}",
    rf"{_CMD}wget\b.*{_PIPE_TO_SHELL}",
    rf">\s*{_Q}{_BLOCK_DEVICE}",
    rf"{_CMD}mkfs\b",
    rf"{_CMD}dd\b[^;&|\n]*\bof={_Q}{_BLOCK_DEVICE}",
    r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:",
]


def _options() -> Any:
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False  # a refused pattern is reported by us, once, with its name
    options.never_capture = True
    return options


@dataclass(frozen=True, slots=True, eq=False)
class DangerousMatcher:
    patterns: tuple[str, ...]
    _set: Any  # re2.Set of every pattern: one linear pass per text
    # verdicts by line; the gate's hot path repeats lines (bounded: cleared when full)
    _verdicts: dict[str, str | None] = field(default_factory=dict)

    @classmethod
    def compile(cls, patterns: Iterable[str]) -> DangerousMatcher:
        listed = tuple(patterns)
        if not listed:
            return cls((), None)
        options = _options()
        combined = re2.Set.SearchSet(options)
        for pattern in listed:
            try:
                re2.compile(pattern, options)
                combined.Add(f"(?m:{pattern})")
            except Exception as exc:  # re2.error, or the Set refusing it
                raise ValueError(
                    f"{SETTING}: invalid regex {pattern!r} (it must be RE2 syntax, which runs in "
                    f"linear time: no lookaround or backreferences): {exc}"
                ) from None
        combined.Compile()
        return cls(listed, combined)

    def check(self, command: str, analysis: ShellAnalysis | None = None) -> str | None:
        if self._set is None:
            return None
        if command in self._verdicts:
            return self._verdicts[command]
        if len(self._verdicts) >= _VERDICTS_KEPT:
            self._verdicts.clear()
        verdict = self._verdicts[command] = self._judge(command, analysis or analyze_shell(command))
        return verdict

    def _judge(self, command: str, analysis: ShellAnalysis) -> str | None:
        # One pass over the line and every command's text, a line each (the patterns run in
        # multi-line mode, so `^` and `$` still mean the start and end of each command).
        texts = [_without_heredocs(command, analysis), *(c.text() for c in analysis.commands)]
        return self._first_match("\n".join(texts))

    def _first_match(self, text: str) -> str | None:
        matched = self._set.Match(text)
        return self.patterns[min(matched)] if matched else None


def _without_heredocs(command: str, analysis: ShellAnalysis) -> str:
    if not analysis.heredocs:
        return command
    source = bytearray(command.encode("utf-8"))
    for start, end in analysis.heredocs:
        source[start:end] = b" " * (end - start)
    return source.decode("utf-8", errors="replace")
