"""Dangerous commands: regexes that block a bash call before any approval, even with a rule.

API:
- `DEFAULT_DANGEROUS_COMMANDS`: seed 000's list (`rm -rf /`, `sudo`, `curl … | sh`,
  `wget … | sh`, `> /dev/sda`, `mkfs.`, `dd … of=/dev/`, the fork bomb).
- `DangerousMatcher.compile(patterns)`: case-insensitive; a bad regex raises `ValueError`
  naming it and the setting. An empty list disables the check.
- `matcher.check(command) -> str | None`: the first matching regex, tried on the raw line and on
  each parsed simple command re-joined with `shlex.join`, so quoting tricks (`s""udo`) do not
  hide a word. Redirections and pipes are only visible in the raw line.

The list is regexes, so `|` means "or": write `curl.*\\|\\s*(ba)?sh`, never `curl | bash`
(which would block every command containing "curl" or "bash").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from jarvis.core.policy.shell import analyze_shell

SETTING = "JARVIS_SECURITY__DANGEROUS_COMMANDS"

_Q = "[\"']?"  # an optional quote: `rm -rf "/"` and `> '/dev/sda'` are still caught
_PIPE_TO_SHELL = r"\|\s*(?:sudo\s+)?(?:\S*/)?(?:ba|da|k|z)?sh\b"

DEFAULT_DANGEROUS_COMMANDS: list[str] = [
    # rm of /, /*, ~ or ~/* whatever the flags (-rf, -fr, -r -f, --recursive ...)
    rf"\brm\s+(?:-\S*\s+)*{_Q}(?:/|/\*|~|~/|~/\*|\$HOME/?){_Q}(?:\s|$|[;&|)])",
    r"(?<![\w.-])sudo\b",
    rf"\bcurl\b.*{_PIPE_TO_SHELL}",
    rf"\bwget\b.*{_PIPE_TO_SHELL}",
    rf">\s*{_Q}/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|loop)",
    r"\bmkfs\b",
    # /dev/null, /dev/zero and the standard streams are harmless targets
    r"\bdd\b.*\bof=[\"']?/dev/(?!null\b|zero\b|stdout\b|stderr\b)",
    r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:",
]


@dataclass(frozen=True, slots=True)
class DangerousMatcher:
    patterns: tuple[re.Pattern[str], ...]

    @classmethod
    def compile(cls, patterns: Iterable[str]) -> DangerousMatcher:
        compiled: list[re.Pattern[str]] = []
        for pattern in patterns:
            try:
                compiled.append(re.compile(pattern, re.IGNORECASE))
            except re.error as exc:
                raise ValueError(f"{SETTING}: invalid regex {pattern!r}: {exc}") from None
        return cls(tuple(compiled))

    def check(self, command: str) -> str | None:
        if not self.patterns:
            return None
        found = self._first_match(command)
        if found is not None:
            return found
        for simple in analyze_shell(command).commands:
            found = self._first_match(simple.text())
            if found is not None:
                return found
        return None

    def _first_match(self, text: str) -> str | None:
        return next((p.pattern for p in self.patterns if p.search(text)), None)
