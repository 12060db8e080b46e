"""The pieces of the rule store that are not the store: its errors, the change records it
reports, who may see a rule, and one rule file's loaded state (`FileEntry`). See `rule_store`.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ruamel.yaml.error import YAMLError

from jarvis.core.policy.rule_file import describe_error
from jarvis.core.policy.rules import Rule, is_expired, is_stale

SHARED_FILE = "approvals.yaml"
AGENT_DIR = "approvals"

AGENT_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")

ChangeKind = Literal["added", "removed", "revoked", "file_error"]


class RuleFileError(Exception):
    """A rule file cannot be changed safely because it does not parse."""


class RulePermissionError(PermissionError):
    """The person may not change this rule (someone else's consent, or the shared file)."""


@dataclass(frozen=True, slots=True)
class RuleChange:
    """One change to the remembered rules, for the audit log."""

    kind: ChangeKind
    origin: str
    tool: str
    label: str  # the rule's label, or the file error
    by: str  # who: the revoking user, the granting user, or "file" for a hand edit
    agent: str | None  # None for the shared file


ChangeListener = Callable[[RuleChange], Awaitable[None]]


def validate_agent_id(agent_id: str) -> str:
    if not AGENT_ID.fullmatch(agent_id):
        raise ValueError(f"invalid agent id {agent_id!r}")
    return agent_id


def visible_to(rule: Rule, user_id: str | None) -> bool:
    """Whether an agent-file rule applies to this person (None: everyone's rules)."""
    return (
        user_id is None
        or rule.action == "deny"
        or rule.granted_by is None
        or rule.granted_by == user_id
    )


Stamp = tuple[int, int, int] | None
UNKNOWN: tuple[int, int, int] = (-1, -1, -1)  # a stat that failed: never equal to a stamp


def stamp(path: str) -> Stamp:
    """What `RuleStore._fresh` compares: None for a missing file."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return UNKNOWN
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


@dataclass(slots=True)
class FileEntry:
    path: Path
    origin: str
    stamp: Stamp = None
    rules: tuple[Rule, ...] = ()
    generation: int = 0  # bumped whenever `rules` changes
    error: str | None = None
    loaded: bool = False  # a good version was read at least once


@functools.lru_cache(maxsize=256)
def agent_origin(agent_id: str) -> str:
    return f"{AGENT_DIR}/{validate_agent_id(agent_id)}.yaml"


def never_loaded(entry: FileEntry) -> str | None:
    return entry.error if entry.error and not entry.loaded else None


def refuse_broken(entry: FileEntry) -> None:
    if entry.error:
        raise RuleFileError(f"{entry.error} (fix the file first; nothing was written)")


@contextmanager
def editing(entry: FileEntry) -> Iterator[None]:
    """The file broke between the stat and the edit: refuse like `refuse_broken`."""
    try:
        yield
    except (YAMLError, ValueError) as exc:
        raise RuleFileError(
            f"{entry.origin}: {describe_error(exc)} (nothing was written)"
        ) from None


def equivalent(old: Rule, new: Rule, now_ms: int) -> bool:
    return old.key == new.key and not is_expired(old, now_ms) and not is_stale(old, new.fingerprint)


def same_target(rule: Rule, probe: Rule) -> bool:
    return rule.tool == probe.tool and rule.key[2] == probe.key[2]
