"""Remembered rules flattened for the hot path, and the bash half of matching them: the index
of shell rules by first word, the most specific allow rule for an argv (as written or
canonical), and the deny rules a command shows through wrappers, inline scripts and canonical
forms. `rules.py` builds these from `Rule`s and decides; see it for the semantics.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from jarvis.core.policy.canonical import canonical_command, deny_forms, has_canonical
from jarvis.core.policy.programs import program_name
from jarvis.core.policy.shell import SimpleCommand
from jarvis.core.policy.unwrap import views

RuleT = TypeVar("RuleT")


@dataclass(frozen=True, slots=True)
class Entry(Generic[RuleT]):
    """A rule flattened for the hot path (pydantic private attributes are slow to read)."""

    rule: RuleT
    tokens: tuple[str, ...]
    glob: re.Pattern[str] | None
    absolute: bool  # an absolute path glob
    specificity: int  # bash: token count; paths: pattern length
    expires_ms: int | None
    fingerprint: str | None
    deny: bool


def in_force(entry: Entry[Any], now_ms: int, fingerprint: str | None) -> bool:
    if entry.expires_ms is not None and entry.expires_ms <= now_ms:
        return False
    return entry.deny or entry.fingerprint is None or entry.fingerprint == fingerprint


# Distinct short commands remembered per rule set (long hostile lines are judged afresh).
_MEMO_LIMIT, _MEMO_WORDS, _MEMO_CHARS = 4096, 32, 1024


@dataclass(slots=True)
class ShellIndex:
    by_first: dict[str, list[Entry[Any]]] = field(default_factory=dict)
    any: list[Entry[Any]] = field(default_factory=list)
    # deny: the entries whose words an argv shows, in match order (pure; in force is per call)
    hits: dict[tuple[str, ...], tuple[Entry[Any], ...]] = field(default_factory=dict)

    def add(self, entry: Entry[Any]) -> None:
        if entry.tokens:
            self.by_first.setdefault(entry.tokens[0], []).append(entry)
        else:
            self.any.append(entry)


def allow_entry(
    words: tuple[str, ...], index: ShellIndex, now_ms: int, fingerprint: str | None
) -> Entry[Any] | None:
    best: Entry[Any] | None = None
    for entry in index.by_first.get(words[0], ()):
        if (
            (best is None or entry.specificity > best.specificity)
            and words[: entry.specificity] == entry.tokens
            and in_force(entry, now_ms, fingerprint)
        ):
            best = entry
    if best is None:
        best = next((entry for entry in index.any if in_force(entry, now_ms, fingerprint)), None)
    return best


def canonical_entry(
    command: SimpleCommand, index: ShellIndex, now_ms: int, fingerprint: str | None
) -> Entry[Any] | None:
    """The allow rule covering the canonical command (`git -P status` for `git status`): only
    when every global option is known, and the program word is the written one (a bare
    `python` for `python -m pytest`: `./python` is not python)."""
    words = command.words
    if command.assignments or not has_canonical(program_name(words[0])):
        return None
    canon = canonical_command(words)
    if canon is None or not canon.exact or canon.argv == words:
        return None
    if canon.argv[0] != words[0] and "/" in words[0]:
        return None
    entry = allow_entry(canon.argv, index, now_ms, fingerprint)
    return entry if entry is not None and entry.tokens else None


def deny_entry(command: SimpleCommand, index: ShellIndex, now_ms: int) -> Entry[Any] | None:
    argv = command.argv
    hits = index.hits.get(argv)
    if hits is None:
        hits = tuple(_deny_hits(command, index))
        if len(argv) <= _MEMO_WORDS and sum(map(len, argv)) <= _MEMO_CHARS:
            if len(index.hits) >= _MEMO_LIMIT:
                index.hits.clear()
            index.hits[argv] = hits
    return next((entry for entry in hits if in_force(entry, now_ms, None)), None)


def _deny_hits(command: SimpleCommand, index: ShellIndex) -> Iterator[Entry[Any]]:
    for words, start in views(command.argv):
        yield from _argv_hits(words, start, index)
        if has_canonical(program_name(words[start])):
            for form in deny_forms(words[start:]):
                yield from _argv_hits(form, 0, index)
        yield from index.any


def _argv_hits(words: tuple[str, ...], start: int, index: ShellIndex) -> Iterator[Entry[Any]]:
    name, base = words[start], program_name(words[start])
    for key in (name, base) if base != name else (name,):
        for entry in index.by_first.get(key, ()):
            if words[start + 1 : start + entry.specificity] == entry.tokens[1:]:
                yield entry
