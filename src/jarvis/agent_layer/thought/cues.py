"""A set of cue patterns searched as one, cheaply (the thought router's features).

Python's `re` skips ahead over a text only when every alternative of a pattern starts with a
literal character; a `\\bword` alternative or one starting with a group makes it try every
alternative at every position (the router's first cues cost ~1 ms on a 600-character window).
`Cue` sorts the alternatives once so that the common case is one fast scan.
"""

from __future__ import annotations

import re

# One token of a pattern: an escape, a whole character class, or one character.
_TOKEN = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|.", re.DOTALL)


def _split_top(pattern: str) -> list[str]:
    """The top-level alternatives of a pattern (`a|b(c|d)` → `a`, `b(c|d)`)."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for token in _TOKEN.findall(pattern):
        if token == "|" and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        depth += (token == "(") - (token == ")")
        current.append(token)
    parts.append("".join(current))
    return parts


_SPECIAL = frozenset("\\[](){}.^$|?*+")
_QUANTIFIER = frozenset("?*+{")
# `\bw…` (w a word letter) ≡ `w(?<!\w.)…`: after the letter, "the letter was not preceded by a
# word character" (at the start there is no two-character window, so the look-behind passes).
_WORD_START = re.compile(r"\\b([a-z0-9])(?![?*+{])")


def _literal_first(alternative: str) -> str | None:
    """The alternative rewritten to begin with a plain literal character, or None if it cannot."""
    hoist = _WORD_START.match(alternative)
    if hoist:
        return f"{hoist.group(1)}(?<!\\w.){alternative[hoist.end() :]}"
    first, second = alternative[:1], alternative[1:2]
    if first and first not in _SPECIAL and second not in _QUANTIFIER:
        return alternative
    return None


class Cue:
    """Is any of these patterns found in a text? The same answer as one `a|b|…` search, cheaper.

    Python's `re` skips ahead over a text only when every alternative of a pattern starts with a
    literal character (it then checks a first-character set at each position instead of trying
    every alternative). So the alternatives are sorted once: those that start with a literal (or
    `\\bword`, rewritten exactly) go into one combined pattern; `^…` ones are tried at the start
    only (`match`); the few others each get their own pattern, and a slow one may be given as
    `(gate, pattern)`: the pattern runs only where the gate — a fast pattern whose match every
    match of the pattern contains — is found.
    `tests/unit/thinking/test_router_speed.py` checks the answer equals the plain search's.
    """

    __slots__ = ("_anchored", "_fast", "_gated", "_others", "patterns")

    def __init__(self, *patterns: str | tuple[str, str]) -> None:
        self.patterns = tuple(p if isinstance(p, str) else p[1] for p in patterns)
        fast: list[str] = []
        anchored: list[str] = []
        others: list[re.Pattern[str]] = []
        gated: list[tuple[re.Pattern[str], re.Pattern[str]]] = []
        for pattern in patterns:
            if isinstance(pattern, tuple):  # (a fast pattern every match contains, the pattern)
                gated.append((re.compile(pattern[0]), re.compile(pattern[1])))
        plain = (pattern for pattern in patterns if isinstance(pattern, str))
        for alternative in (alt for pattern in plain for alt in _split_top(pattern)):
            literal = _literal_first(alternative)
            if literal is not None:
                fast.append(literal)
            elif alternative.startswith("^"):
                anchored.append(f"(?:{alternative})")
            else:
                others.append(re.compile(alternative))
        self._fast = re.compile("|".join(fast)) if fast else None
        self._anchored = re.compile("|".join(anchored)) if anchored else None
        self._others = tuple(others)
        self._gated = tuple(gated)

    def search(self, text: str) -> bool:
        """Over lower-cased text (IGNORECASE makes Python's re several times slower)."""
        if self._fast is not None and self._fast.search(text):
            return True
        if self._anchored is not None and self._anchored.match(text):
            return True
        if any(pattern.search(text) for pattern in self._others):
            return True
        return any(gate.search(text) and pattern.search(text) for gate, pattern in self._gated)
