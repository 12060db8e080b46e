"""Rule files: the shared hand-edited `approvals.yaml` and per-agent `approvals/<agent_id>.yaml`.

API (`RuleStore(home, clock=None)`, async, thread-safe; `PostgresRuleStore` keeps it with the
per-agent rules in the database):
- `rules_for(agent_id) -> RuleSet`: shared rules then the agent's, compiled. Every call
  re-stats both files (mtime_ns, size, inode) and re-reads only a changed one, so an edited,
  added or deleted rule applies on the next call; the compiled set is cached until then.
- `add_rule(agent_id, rule) -> bool`: ALWAYS. Appends to the agent file unless an equivalent
  rule in force (same tool, action and pattern as matched, not expired, not stale for the new
  rule's fingerprint) is in the shared or agent file; then writes nothing and returns False.
- `revoke(agent_id, tool, pattern, shared=False) -> int`: removes every rule of that tool and
  pattern (either action) from the agent file, or from the shared file; returns how many.
- `list_all() -> dict[origin, list[Rule]]`, `errors() -> list[str]`.

File format: a mapping with one key, `rules:`, a list of rule mappings (flow style
`- {tool: bash, pattern: uv run}` or block style). Edits go through ruamel.yaml round-trip
mode and removals cut the rule's own lines, so people's comments and layout survive; every
write is atomic (temp file + rename). A file that fails to read, parse or validate keeps its
last good rules, is logged once per broken version and is listed by `errors()`; `add_rule` and
`revoke` refuse to edit it (`RuleFileError`) rather than lose what a person wrote.
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.util import load_yaml_guess_indent

from jarvis.common.atomic import atomic_write_text
from jarvis.common.clock import Clock, SystemClock
from jarvis.common.logging import get_logger
from jarvis.core.policy.rules import Rule, RuleSet, is_expired, is_stale

SHARED_FILE = "approvals.yaml"
AGENT_DIR = "approvals"

_log = get_logger("jarvis.core.policy.rule_store")
_AGENT_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_RULES_KEY = "rules"


class RuleFileError(Exception):
    """A rule file cannot be changed safely because it does not parse."""


def validate_agent_id(agent_id: str) -> str:
    if not _AGENT_ID.fullmatch(agent_id):
        raise ValueError(f"invalid agent id {agent_id!r}")
    return agent_id


@dataclass(slots=True)
class _File:
    path: Path
    origin: str
    stamp: tuple[int, int, int] | None = None
    rules: tuple[Rule, ...] = ()
    generation: int = 0  # bumped whenever `rules` changes
    error: str | None = None


class RuleStore:
    """The rule files. The async API is the seam `PostgresRuleStore` keeps: it moves the
    per-agent half into the database and leaves the shared hand-edited file here."""

    def __init__(self, home: Path, clock: Clock | None = None) -> None:
        self._home = home
        self._clock = clock or SystemClock()
        self._files: dict[str, _File] = {}
        self._sets: dict[str, tuple[tuple[object, ...], RuleSet]] = {}
        self._lock = threading.RLock()

    async def open(self) -> None:
        """Nothing to connect for files."""

    async def aclose(self) -> None:
        """Nothing to close for files."""

    async def rules_for(self, agent_id: str) -> RuleSet:
        own_version, own = await self._agent_rules(agent_id)
        with self._lock:
            shared = self._fresh(SHARED_FILE)
            version = (shared.generation, own_version)
            cached = self._sets.get(agent_id)
            if cached is None or cached[0] != version:
                cached = (version, RuleSet((*shared.rules, *own)))
                self._sets[agent_id] = cached
            return cached[1]

    async def add_rule(self, agent_id: str, rule: Rule) -> bool:
        _, own = await self._agent_rules(agent_id)
        with self._lock:
            shared = self._fresh(SHARED_FILE).rules
        now = self._clock.now_ms()
        if any(_equivalent(old, rule, now) for old in (*shared, *own)):
            return False
        await self._append(agent_id, rule)
        return True

    async def revoke(self, agent_id: str, tool: str, pattern: str, *, shared: bool = False) -> int:
        probe = Rule(tool=tool, pattern=pattern)  # a bad pattern raises ValueError
        if shared:
            return self._revoke_in_file(SHARED_FILE, probe)
        return await self._revoke_own(validate_agent_id(agent_id), probe)

    async def list_all(self) -> dict[str, list[Rule]]:
        with self._lock:
            shared = list(self._fresh(SHARED_FILE).rules)
        return {SHARED_FILE: shared, **await self._listing()}

    def agent_of(self, origin: str) -> str | None:
        """The agent an origin of `list_all` belongs to; None for the shared file."""
        prefix = f"{AGENT_DIR}/"
        return (
            origin.removeprefix(prefix).removesuffix(".yaml") if origin.startswith(prefix) else None
        )

    def errors(self) -> list[str]:
        with self._lock:
            origins = dict.fromkeys([SHARED_FILE, *self._agent_origins(), *self._files])
            return [error for origin in origins if (error := self._fresh(origin).error)]

    # the per-agent half: files here, rows in PostgresRuleStore

    async def _agent_rules(self, agent_id: str) -> tuple[object, tuple[Rule, ...]]:
        """The agent's rules and a version that changes whenever they do."""
        with self._lock:
            own = self._fresh(_agent_origin(agent_id))
            return own.generation, own.rules

    async def _append(self, agent_id: str, rule: Rule) -> None:
        with self._lock:
            own = self._fresh(_agent_origin(agent_id))
            _refuse_broken(own)
            with _editing(own):
                self._write(own, _appended(_read(own.path), rule))

    async def _revoke_own(self, agent_id: str, probe: Rule) -> int:
        return self._revoke_in_file(_agent_origin(agent_id), probe)

    async def _listing(self) -> dict[str, list[Rule]]:
        with self._lock:
            return {origin: list(self._fresh(origin).rules) for origin in self._agent_origins()}

    def _revoke_in_file(self, origin: str, probe: Rule) -> int:
        with self._lock:
            entry = self._fresh(origin)
            _refuse_broken(entry)
            with _editing(entry):
                text = _read(entry.path)
                rules = _parse(text, entry.origin)
                doomed = {i for i, rule in enumerate(rules) if same_target(rule, probe)}
                if doomed:
                    self._write(entry, _without(text, rules, doomed))
            return len(doomed)

    def _agent_origins(self) -> list[str]:
        folder = self._home / AGENT_DIR
        names = sorted(path.stem for path in folder.glob("*.yaml")) if folder.is_dir() else []
        return [f"{AGENT_DIR}/{name}.yaml" for name in names if _AGENT_ID.fullmatch(name)]

    def _fresh(self, origin: str) -> _File:
        """The file's entry, re-read only if its stat changed."""
        entry = self._files.get(origin)
        if entry is None:
            entry = self._files[origin] = _File(self._home / origin, origin)
        try:
            stat = entry.path.stat()
        except FileNotFoundError:
            if entry.stamp is not None or entry.rules or entry.error:
                _replace(entry, None, ())
            return entry
        except OSError as exc:
            _fail(entry, f"{origin}: {exc}")
            return entry
        stamp = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        if stamp != entry.stamp:
            try:
                rules = _parse(_read(entry.path), origin)
            except (OSError, YAMLError, ValueError) as exc:
                entry.stamp = stamp
                _fail(entry, f"{origin}: {_describe(exc)}")
            else:
                _replace(entry, stamp, rules)
        return entry

    def _write(self, entry: _File, text: str) -> None:
        atomic_write_text(entry.path, text)
        entry.stamp = None  # re-read (and re-validate) on the next call


def _agent_origin(agent_id: str) -> str:
    return f"{AGENT_DIR}/{validate_agent_id(agent_id)}.yaml"


def _replace(entry: _File, stamp: tuple[int, int, int] | None, rules: tuple[Rule, ...]) -> None:
    entry.stamp, entry.rules, entry.error = stamp, rules, None
    entry.generation += 1


def _fail(entry: _File, message: str) -> None:
    if message != entry.error:
        _log.error("rule file not loaded, keeping its last good rules: %s", message)
    entry.error = message


def _refuse_broken(entry: _File) -> None:
    if entry.error:
        raise RuleFileError(f"{entry.error} (fix the file first; nothing was written)")


@contextmanager
def _editing(entry: _File) -> Iterator[None]:
    """The file broke between the stat and the edit: refuse like `_refuse_broken`."""
    try:
        yield
    except (YAMLError, ValueError) as exc:
        raise RuleFileError(f"{entry.origin}: {_describe(exc)} (nothing was written)") from None


def _equivalent(old: Rule, new: Rule, now_ms: int) -> bool:
    return old.key == new.key and not is_expired(old, now_ms) and not is_stale(old, new.fingerprint)


def same_target(rule: Rule, probe: Rule) -> bool:
    return rule.tool == probe.tool and rule.key[2] == probe.key[2]


# reading


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def _round_trip() -> YAML:
    yaml = YAML()  # round-trip mode: keeps comments, order, flow style
    yaml.preserve_quotes = True
    yaml.width = 4096  # one flow-style rule stays on one line
    return yaml


def _load(text: str) -> tuple[Any, YAML]:
    """The round-trip document and a YAML instance set to dump it with the same indentation."""
    yaml = _round_trip()
    document, indent, sequence_offset = load_yaml_guess_indent(text, yaml=yaml)
    if indent is None:
        indent, sequence_offset = 4, 2
    yaml.indent(mapping=indent, sequence=indent, offset=sequence_offset or 0)
    return document, yaml


def _rule_items(document: Any) -> list[Any]:
    if document is None:
        return []
    if not isinstance(document, dict) or set(document) - {_RULES_KEY}:
        raise ValueError("the file must be a mapping with one key, 'rules'")
    items = document.get(_RULES_KEY)
    if items is None:
        return []
    if not isinstance(items, list):
        raise ValueError("'rules' must be a list")
    return items


def _parse(text: str, origin: str) -> tuple[Rule, ...]:
    document, _ = _load(text)
    rules = []
    for number, item in enumerate(_rule_items(document), start=1):
        if not isinstance(item, dict):
            raise ValueError(f"rule {number} must be a mapping, got {item!r}")
        values = {str(key): _plain(value) for key, value in item.items()}
        try:
            rules.append(Rule.model_validate({**values, "origin": origin}))
        except ValidationError as exc:
            raise ValueError(f"rule {number}: {_describe(exc)}") from None
    return tuple(rules)


def _plain(value: Any) -> Any:
    """YAML reads an unquoted `2026-01-01T00:00:00Z` as a timestamp; rules keep text."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(
            f"{'.'.join(map(str, error['loc'])) or 'rule'}: {error['msg']}"
            for error in exc.errors()
        )
    return " ".join(str(exc).split())


# writing


def _dump(document: Any, yaml: YAML) -> str:
    buffer = io.StringIO()
    yaml.dump(document, buffer)
    return buffer.getvalue()


def _appended(text: str, rule: Rule) -> str:
    document, yaml = _load(text)
    _rule_items(document)
    if document is None:
        document = CommentedMap()
    items = document.get(_RULES_KEY)
    if items is None:
        items = document[_RULES_KEY] = CommentedSeq()
    if not items:
        items.fa.set_block_style()  # `rules: []` becomes a list people can edit line by line
    items.append(_flow_mapping(rule))
    return _dump(document, yaml)


def _flow_mapping(rule: Rule) -> CommentedMap:
    values = rule.model_dump(exclude_none=True)
    if values.get("action") == "allow":
        del values["action"]
    mapping = CommentedMap(values)
    mapping.fa.set_flow_style()
    return mapping


def _without(text: str, rules: tuple[Rule, ...], doomed: set[int]) -> str:
    """Cut the doomed rules' own lines; if the result does not read back as exactly the other
    rules (an unusual layout), fall back to a structural delete (comments may move)."""
    document, yaml = _load(text)
    items = _rule_items(document)
    expected = [rule for i, rule in enumerate(rules) if i not in doomed]
    cut = _cut_lines(text, items, doomed)
    if cut is not None and _reads_as(cut, expected):
        return cut
    for index in sorted(doomed, reverse=True):
        del items[index]
    return _dump(document, yaml)


def _cut_lines(text: str, items: list[Any], doomed: Iterable[int]) -> str | None:
    lines = text.splitlines(keepends=True)
    for index in sorted(doomed, reverse=True):
        span = _item_span(lines, items, index)
        if span is None:
            return None
        del lines[span[0] : span[1]]
    return "".join(lines)


def _item_span(lines: list[str], items: list[Any], index: int) -> tuple[int, int] | None:
    """Lines of one block-sequence item: its `- ` line and the deeper-indented lines after it.
    Comment lines at the dash's indentation belong to the next rule and stay."""
    if not isinstance(items, CommentedSeq):
        return None
    line, column = items.lc.item(index)
    head = lines[line][:column].rstrip()
    if not head.endswith("-") or head[:-1].strip():
        return None  # not `  - item` on its own line
    dash = len(head) - 1
    end = line + 1
    while end < len(lines) and lines[end].strip():
        if len(lines[end]) - len(lines[end].lstrip(" ")) <= dash:
            break
        end += 1
    return line, end


def _reads_as(text: str, expected: list[Rule]) -> bool:
    try:
        found = _parse(text, "")
    except (YAMLError, ValueError):
        return False
    return [rule.model_dump() for rule in found] == [rule.model_dump() for rule in expected]
