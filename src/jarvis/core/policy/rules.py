"""Remembered rules ("always") and pure matching against them. No I/O, no clock.

API:
- `Rule`: one rule as stored in YAML. Validation is strict so a typo never widens a rule:
  unknown keys, an empty or unbalanced bash pattern, a relative path pattern that climbs out of
  the workspace, a bad timestamp, or a pattern other than `*` for a tool that takes none are
  errors. A bash allow rule whose first word is a wrapper (`find`, `xargs`, `env`, `sudo`...),
  `eval`/`source`/`exec`, or whose words make the program run other code (`sh -c`, `git -c`,
  `pytest -p`: see `argv_policy.pattern_refusal`) is an error too, and no bash rule may hold a
  secret-looking word (`secrets.secret_in`), also when hand-written.
- `RuleSet(rules)`: rules compiled once per load (bash patterns tokenised and indexed by first
  word, path globs compiled); iterable and sized. Every match function takes one.
- `match_shell_rules(analysis, rules, *, now_ms, fingerprint) -> RuleMatch`
- `match_path_rules(tool, path, rules, *, workspace, now_ms, fingerprint) -> RuleMatch`
- `match_any_rules(tool, rules, *, now_ms, fingerprint) -> RuleMatch` (every other tool)
- `normalise_path(raw, workspace)`, `is_expired(rule, now)`, `is_stale(rule, fingerprint)`.

Semantics:
- Deny wins over allow whatever the specificity. An expired rule never applies. An allow rule
  granted under another policy fingerprint is stale and skipped (hand-written rules have no
  fingerprint and never go stale); deny rules apply whatever their fingerprint.
- bash allow: exact token prefix of the words as written (`git status` covers `git status -s`,
  not `git stash`, `./git status`, `env git status` or `FOO=1 git status`), or of the canonical
  command when its global options are all known and harmless (`git -P status`; see
  `canonical`). `*` covers any
  simple command, and a trailing ` *` is the same as leaving it out (`uv run *` == `uv run`).
  A line is allowed only when it is safe (see `shell.py`) and *every* simple command is covered:
  its most specific rule matches and the program's argument policy accepts the whole argv
  (`argv_policy.argument_refusal`: `git log --ext-diff`, `find -exec`, `sed -i` beyond a `sed`
  rule and `sh -c` under `*` ask, with the refusal's reason as `RuleMatch.reason`). Each command
  names its rule (`RuleMatch.rules`, in command order).
- bash deny is best effort and errs toward blocking: it checks every simple command (also inside
  substitutions), matches the command name's basename too (`/bin/rm` for `rm`), looks inside
  `sh -c '..'` and `eval ..`, and tries the words after a wrapper or runner (`env`, `xargs`,
  `timeout`, `find -exec`, `uv run`, `npx` ...; see `unwrap`), and tries every canonical form
  (`git -C . push` is `git push`; `canonical.deny_forms`). Allow is exact and errs toward
  asking.
- write_file/edit_file: glob over the lexically normalised path (`*` and `?` stay inside one
  directory, `**` crosses any depth, nothing else is special). Relative patterns match paths
  inside the workspace, absolute patterns the absolute path; so `*` is the workspace root's
  files only and `**` the whole workspace. Symlinks are not resolved (pass a resolved path to
  judge where a write really lands).
- read_file/glob/grep/list_dir: path globs as for writes, and a pattern ending in `/**` also
  covers the directory itself (`/home/u/notes/**` covers `list_dir /home/u/notes`). Matching
  (lexical and real path) lives in `boundary_rules.py`.
- web_fetch: a host pattern (`docs.python.org`, `*.example.com`, `*`; see `network.py`).
- Other tools: only the pattern `*`, which covers every call.
"""

from __future__ import annotations

import functools
import itertools
import os
import posixpath
import re
import shlex
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from jarvis.core.policy.argv_policy import command_refusal, pattern_refusal
from jarvis.core.policy.git_aliases import GitExpansion
from jarvis.core.policy.globs import GlobUnion, compile_glob, compile_read_glob
from jarvis.core.policy.network import normalise_host_pattern
from jarvis.core.policy.rule_index import (
    Entry,
    ShellIndex,
    allow_entry,
    canonical_entry,
    deny_entry,
    in_force,
)
from jarvis.core.policy.secrets import secret_in
from jarvis.core.policy.shell import ShellAnalysis, SimpleCommand

SHELL_TOOLS = frozenset({"bash"})
PATH_TOOLS = frozenset({"write_file", "edit_file"})
READ_TOOLS = frozenset({"read_file", "glob", "grep", "list_dir"})
HOST_TOOLS = frozenset({"web_fetch"})
ANY_PATTERN = "*"

RuleAction = Literal["allow", "deny"]
MatchOutcome = Literal["allow", "deny", "none"]

_TRAILING_ANY = re.compile(r"\s+\*\s*\Z")


class Rule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    tool: str = Field(min_length=1)
    pattern: str = ANY_PATTERN
    action: RuleAction = "allow"
    granted_by: str | None = None
    granted_at: str | None = None  # ISO 8601 UTC
    session_id: str | None = None
    expires_at: str | None = None  # ISO 8601; naive means UTC
    # The policy fingerprint when granted; hand-written rules have none and never go stale.
    fingerprint: str | None = None
    origin: str = Field(default="", exclude=True)  # file label, e.g. `approvals/main.yaml`

    _tokens: tuple[str, ...] = PrivateAttr(default=())
    _glob: re.Pattern[str] | None = PrivateAttr(default=None)
    _canonical: str = PrivateAttr(default=ANY_PATTERN)
    _expires_ms: int | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _compile(self) -> Rule:
        if self.granted_at is not None:
            _iso_ms(self.granted_at)
        self._expires_ms = None if self.expires_at is None else _iso_ms(self.expires_at)
        if self.tool in SHELL_TOOLS:
            self._tokens = _shell_tokens(self.pattern, self.action)
            self._canonical = shlex.join(self._tokens) if self._tokens else ANY_PATTERN
        elif self.tool in PATH_TOOLS:
            self._canonical = _normalise_glob(self.pattern)
            self._glob = compile_glob(self._canonical)
        elif self.tool in READ_TOOLS:
            self._canonical = _normalise_glob(self.pattern)
            self._glob = compile_read_glob(self._canonical)
        elif self.tool in HOST_TOOLS:
            self._canonical = normalise_host_pattern(self.pattern)
        elif self.pattern.strip() != ANY_PATTERN:
            raise ValueError(f"tool {self.tool!r} takes only the pattern '*'")
        return self

    @property
    def tokens(self) -> tuple[str, ...]:
        """A bash rule's prefix tokens; empty means any simple command."""
        return self._tokens

    @property
    def key(self) -> tuple[str, RuleAction, str]:
        """Rules with equal keys match the same calls (`git  status` == `git status`)."""
        return (self.tool, self.action, self._canonical)

    def label(self) -> str:
        """`approvals/main.yaml: allow bash git status`, for audit lines and the HUD."""
        text = f"{self.action} {self.tool} {self.pattern}"
        return f"{self.origin}: {text}" if self.origin else text


@dataclass(frozen=True, slots=True)
class RuleMatch:
    outcome: MatchOutcome
    # deny: the deny rule; allow: the covering rule of each simple command, in order.
    rules: tuple[Rule, ...] = ()
    # none: the line's first unsafe reason, or "no_rule"; else "deny_rule" / "allow_rule".
    reason: str = "no_rule"

    @property
    def rule(self) -> Rule | None:
        return self.rules[0] if self.rules else None


NO_MATCH = RuleMatch("none")


def _entry(rule: Rule) -> Entry[Rule]:
    shell = rule.tool in SHELL_TOOLS
    return Entry(
        rule=rule,
        tokens=rule._tokens,
        glob=rule._glob,
        absolute=rule._canonical.startswith("/"),
        specificity=len(rule._tokens) if shell else len(rule._canonical),
        expires_ms=rule._expires_ms,
        fingerprint=rule.fingerprint,
        deny=rule.action == "deny",
    )


class RuleSet:
    """Rules compiled for matching; build once per load, never per call."""

    __slots__ = ("_allow", "_by_tool", "_deny", "_paths", "rules", "unreadable")

    def __init__(self, rules: Iterable[Rule] = (), *, unreadable: tuple[str, ...] = ()) -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)
        # Errors of rule files that never loaded: what they denied is unknown, so the gate asks.
        self.unreadable = unreadable
        self._allow = ShellIndex()
        self._deny = ShellIndex()
        self._by_tool: dict[tuple[str, RuleAction], list[Entry[Rule]]] = {}
        for rule in self.rules:
            entry = _entry(rule)
            if rule.tool in SHELL_TOOLS:
                (self._deny if entry.deny else self._allow).add(entry)
            else:
                self._by_tool.setdefault((rule.tool, rule.action), []).append(entry)
        self._paths = {
            (tool, action): _path_group(entries, action)
            for (tool, action), entries in self._by_tool.items()
            if tool in PATH_TOOLS or tool in READ_TOOLS
        }

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)


def match_shell_rules(
    analysis: ShellAnalysis,
    rules: RuleSet,
    *,
    now_ms: int,
    fingerprint: str | None,
    git: Mapping[int, GitExpansion] | None = None,
) -> RuleMatch:
    """deny if any simple command hits a deny rule; allow if the line is safe and every simple
    command is covered by an allow rule; otherwise none (ask). `git`: the alias expansions of
    the commands (`git_aliases.git_expansions`, by command index): each form is matched like a
    command of the line, and a refusal keeps allow rules off."""
    expanded = _expanded(git) if git else {}
    if rules._deny.by_first or rules._deny.any:
        for command in (*analysis.commands, *itertools.chain(*expanded.values())):
            denied = deny_entry(command, rules._deny, now_ms)
            if denied is not None:
                return RuleMatch("deny", (denied.rule,), "deny_rule")
    if analysis.unsafe:
        return RuleMatch("none", reason=analysis.unsafe[0])
    if git and (refused := next((e.refusal for e in git.values() if e.refusal), None)):
        return RuleMatch("none", reason=refused)
    covering: list[Rule] = []
    replaced = {i for i, e in git.items() if e.direct} if git else set()
    written = (c for i, c in enumerate(analysis.commands) if i not in replaced)
    for command in (*written, *itertools.chain(*expanded.values())):
        entry = allow_entry(command.words, rules._allow, now_ms, fingerprint)
        canonical = canonical_entry(command, rules._allow, now_ms, fingerprint)
        if canonical is not None and (entry is None or canonical.specificity > entry.specificity):
            entry = canonical
        if entry is None:
            return NO_MATCH
        on_canonical = entry is canonical
        refusal = command_refusal(command, entry.specificity, canonical=on_canonical)
        if refusal is not None:
            return RuleMatch("none", reason=refusal.reason)  # see argv_policy
        covering.append(entry.rule)
    return RuleMatch("allow", tuple(covering), "allow_rule")


def _expanded(git: Mapping[int, GitExpansion]) -> dict[int, tuple[SimpleCommand, ...]]:
    return {i: tuple(SimpleCommand(form) for form in e.forms if form) for i, e in git.items()}


def match_path_rules(
    tool: str,
    path: str,
    rules: RuleSet,
    *,
    workspace: Path,
    now_ms: int,
    fingerprint: str | None,
) -> RuleMatch:
    """write_file/edit_file: deny wins; among allow rules the longest pattern is named."""
    deny = rules._paths.get((tool, "deny"))
    allow = rules._paths.get((tool, "allow"))
    if deny is None and allow is None:
        return NO_MATCH
    absolute, relative = _locate(path, workspace)
    actions: tuple[tuple[RuleAction, _PathGroup | None], ...] = (("deny", deny), ("allow", allow))
    for action, group in actions:
        entry = group and _first_covering(group, absolute, relative, now_ms, fingerprint)
        if entry:
            return RuleMatch(action, (entry.rule,), f"{action}_rule")
    return NO_MATCH


def match_any_rules(
    tool: str, rules: RuleSet, *, now_ms: int, fingerprint: str | None
) -> RuleMatch:
    """Tools without patterns: a `*` rule covers every call; deny wins."""
    for action in ("deny", "allow"):
        for entry in rules._by_tool.get((tool, action), []):
            if in_force(entry, now_ms, fingerprint):
                return RuleMatch(action, (entry.rule,), f"{action}_rule")
    return NO_MATCH


def normalise_path(raw: str, workspace: Path) -> str:
    """`..` resolved lexically and `~` expanded (as the file tools do); relative to the
    workspace when inside it (`.` for the workspace itself), else absolute."""
    absolute, relative = _locate(raw, workspace)
    return absolute if relative is None else relative


def is_expired(rule: Rule, now: int | str) -> bool:
    """`now` is epoch milliseconds or an ISO 8601 timestamp."""
    now_ms = now if isinstance(now, int) else _iso_ms(now)
    return rule._expires_ms is not None and rule._expires_ms <= now_ms


def is_stale(rule: Rule, fingerprint: str | None) -> bool:
    """An allow rule granted under a policy that no longer holds (shown as stale, ignored)."""
    return rule.action == "allow" and rule.fingerprint not in (None, fingerprint)


# rule compilation


def _iso_ms(text: str) -> int:
    moment = datetime.fromisoformat(text.strip())
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def _shell_tokens(pattern: str, action: RuleAction) -> tuple[str, ...]:
    text = pattern.strip()
    if text == ANY_PATTERN:
        return ()
    tokens = tuple(shlex.split(_TRAILING_ANY.sub("", text)))
    if not tokens:
        raise ValueError("a bash pattern needs at least one word (or '*')")
    if secret_in(tokens) is not None:
        raise ValueError("a bash pattern must not hold a password, token or other secret")
    refusal = pattern_refusal(tokens) if action == "allow" else None
    if refusal is not None:
        raise ValueError(refusal)
    return tokens


def _normalise_glob(pattern: str) -> str:
    text = os.path.expanduser(pattern.strip())
    if not text:
        raise ValueError("a path pattern must not be empty")
    text = _collapse_root(posixpath.normpath(text))
    if text == ".." or text.startswith("../"):
        raise ValueError(f"path pattern {pattern!r} leaves the workspace; write it absolute")
    return text


# matching


def _locate(raw: str, workspace: Path) -> tuple[str, str | None]:
    """(absolute path, path relative to the workspace or None when outside)."""
    root = _root(workspace)
    absolute = _collapse_root(posixpath.normpath(posixpath.join(root, _expand(raw))))
    if absolute == root:
        return absolute, "."
    prefix = root if root.endswith("/") else root + "/"
    return absolute, absolute[len(prefix) :] if absolute.startswith(prefix) else None


@functools.lru_cache(maxsize=64)
def _root(workspace: Path) -> str:
    return _collapse_root(os.path.abspath(workspace))


def _collapse_root(path: str) -> str:
    """POSIX keeps a leading `//`; the kernel reads it as `/`, so must we."""
    return "/" + path.lstrip("/") if path.startswith("//") else path


_PathGroup = tuple[tuple["Entry[Rule]", ...], GlobUnion]


def _path_group(entries: list[Entry[Rule]], action: RuleAction) -> _PathGroup:
    """Deny: file order (the first covering rule is named). Allow: the longest pattern first,
    file order among equals (the most specific covering rule is named)."""
    ordered = entries if action == "deny" else sorted(entries, key=lambda e: -e.specificity)
    return tuple(ordered), GlobUnion([(entry.glob, entry.absolute) for entry in ordered])


def _first_covering(
    group: _PathGroup, absolute: str, relative: str | None, now_ms: int, fingerprint: str | None
) -> Entry[Rule] | None:
    entries, union = group
    position = union.first(absolute, relative)
    if position is None:
        return None
    # the rules before `position` do not cover the path; a covering one may be out of force
    for entry in entries[position:]:
        if in_force(entry, now_ms, fingerprint) and _covers_path(entry, absolute, relative):
            return entry
    return None


def _covers_path(entry: Entry[Rule], absolute: str, relative: str | None) -> bool:
    target = absolute if entry.absolute else relative
    glob = entry.glob
    return target is not None and glob is not None and glob.fullmatch(target) is not None


def _expand(raw: str) -> str:
    """`~` expanded; most paths have none, and expanduser reads the environment each time."""
    return os.path.expanduser(raw) if raw.startswith("~") else raw
