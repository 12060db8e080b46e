"""Dangerous commands: regexes blocked before any approval, even with an "always" rule.

The list is regexes, so `|` means "or": write `curl.*\\|\\s*(ba)?sh`, never `curl | bash` (which
would block every command containing "curl" or "bash").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

SETTING = "JARVIS_SECURITY__DANGEROUS_COMMANDS"

DEFAULT_DANGEROUS_COMMANDS: list[str] = [
    r"\brm\s+(-[a-z]*r[a-z]*f[a-z]*|-[a-z]*f[a-z]*r[a-z]*|-r\s+-f|-f\s+-r)\s+(/|/\*|~/?)(\s|$)",
    r"(^|[\s;&|(])sudo\b",
    r"\bcurl\b.*\|\s*(sudo\s+)?(ba|z|da)?sh\b",
    r"\bwget\b.*\|\s*(sudo\s+)?(ba|z|da)?sh\b",
    r">\s*/dev/(sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d)",
    r"\bmkfs(\.\w+)?\b",
    r"\bdd\b.*\bof=/dev/",
    r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:",
]


@dataclass(frozen=True)
class DangerousMatcher:
    patterns: tuple[re.Pattern[str], ...]

    @classmethod
    def compile(cls, patterns: Iterable[str]) -> DangerousMatcher:
        compiled = []
        for pattern in patterns:
            try:
                compiled.append(re.compile(pattern, re.IGNORECASE))
            except re.error as exc:
                raise ValueError(f"{SETTING}: invalid regex {pattern!r}: {exc}") from None
        return cls(tuple(compiled))

    def check(self, command: str, simple_commands: Iterable[str] = ()) -> str | None:
        """The first matching regex on the raw line or on any parsed simple command."""
        for text in (command, *simple_commands):
            for pattern in self.patterns:
                if pattern.search(text):
                    return pattern.pattern
        return None
