"""Bash brace expansion of one word, for judging what a destructive command will really be given
(`rm -rf /{,}` is `rm -rf / /`, `rm -rf {~,/}` is `rm -rf ~ /`). Pure and bounded.

API: `expand_braces(word, limit=LIMIT) -> tuple[str, ...] | None`: the words bash makes of
`word` (`{a,b}` alternatives, nested, and `{1..3}`, `{a..e}`, `{1..9..2}` sequences), or None
when there would be more than `limit` of them. Quotes are already removed from the word, so a
quoted brace expands here although bash would keep it: wider than bash on purpose (this only
ever makes the destructive judgement block more).
"""

from __future__ import annotations

import re

LIMIT = 1024
_SEQUENCE = re.compile(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?|([A-Za-z])\.\.([A-Za-z])")


def expand_braces(word: str, limit: int = LIMIT) -> tuple[str, ...] | None:
    if "{" not in word:
        return (word,)
    found: list[str] = []
    pending = [word]
    while pending:
        current = pending.pop()
        split = _first_brace(current)
        if split is None:
            found.append(current)
            if len(found) > limit:
                return None
            continue
        prefix, alternatives, suffix = split
        if len(pending) + len(found) + len(alternatives) > limit:
            return None
        pending.extend(prefix + a + suffix for a in reversed(alternatives))
    return tuple(found)


def _first_brace(word: str) -> tuple[str, list[str], str] | None:
    """The leftmost `{..}` bash expands: (text before, alternatives, text after)."""
    start = word.find("{")
    while start >= 0:
        end = _matching(word, start)
        if end < 0:
            return None
        inner = word[start + 1 : end]
        alternatives = _split(inner) or _sequence(inner)
        if alternatives is not None:
            return word[:start], alternatives, word[end + 1 :]
        start = word.find("{", start + 1)
    return None


def _matching(word: str, start: int) -> int:
    depth = 0
    for index in range(start, len(word)):
        char = word[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index
    return -1


def _split(inner: str) -> list[str] | None:
    """`a,b{c,d},e` at depth 0: its alternatives; None without a comma at depth 0."""
    parts, depth, last = [], 0, 0
    for index, char in enumerate(inner):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(inner[last:index])
            last = index + 1
    if not parts:
        return None
    parts.append(inner[last:])
    return parts


def _sequence(inner: str) -> list[str] | None:
    found = _SEQUENCE.fullmatch(inner)
    if found is None:
        return None
    if found.group(4):
        first, last = ord(found.group(4)), ord(found.group(5))
        step = 1 if last >= first else -1
        return [chr(code) for code in range(first, last + step, step)][: LIMIT + 1]
    first, last = int(found.group(1)), int(found.group(2))
    step = abs(int(found.group(3) or 1)) or 1
    step = step if last >= first else -step
    count = abs(last - first) // abs(step) + 1
    if count > LIMIT:
        return [str(first)] * (LIMIT + 1)  # more than the limit: the caller gives up
    return [str(first + n * step) for n in range(count)]
