"""One rule file on disk: YAML read and written in round-trip mode, under a cross-process lock.

- `read_text(path)`, `parse_rules(text, origin)`: the file's rules, strictly validated (a
  `ValueError`/`YAMLError` names the rule and the problem; `describe_error` makes it one line).
- `appended(text, rule)`, `without(text, rules, doomed)`: the new text after an ALWAYS or a
  revoke. Removals cut the rule's own lines, so people's comments and layout survive.
- `locked(path)`: an exclusive `fcntl` lock on the file's directory, held around every
  read-modify-write, so two processes editing one file never lose each other's changes.
"""

from __future__ import annotations

import fcntl
import io
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.util import load_yaml_guess_indent

from jarvis.core.policy.rules import Rule

RULES_KEY = "rules"


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock for `path` across processes (released on exit or on death).
    The lock is taken on the file's directory, so no lock files litter the rule folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


# reading


def read_text(path: Path) -> str:
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
    if not isinstance(document, dict) or set(document) - {RULES_KEY}:
        raise ValueError("the file must be a mapping with one key, 'rules'")
    items = document.get(RULES_KEY)
    if items is None:
        return []
    if not isinstance(items, list):
        raise ValueError("'rules' must be a list")
    return items


def parse_rules(text: str, origin: str) -> tuple[Rule, ...]:
    document, _ = _load(text)
    rules = []
    for number, item in enumerate(_rule_items(document), start=1):
        if not isinstance(item, dict):
            raise ValueError(f"rule {number} must be a mapping, got {item!r}")
        values = {str(key): _plain(value) for key, value in item.items()}
        try:
            rules.append(Rule.model_validate({**values, "origin": origin}))
        except ValidationError as exc:
            raise ValueError(f"rule {number}: {describe_error(exc)}") from None
    return tuple(rules)


def _plain(value: Any) -> Any:
    """YAML reads an unquoted `2026-01-01T00:00:00Z` as a timestamp; rules keep text."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def describe_error(exc: Exception) -> str:
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


def appended(text: str, rule: Rule) -> str:
    document, yaml = _load(text)
    _rule_items(document)
    if document is None:
        document = CommentedMap()
    items = document.get(RULES_KEY)
    if items is None:
        items = document[RULES_KEY] = CommentedSeq()
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


def without(text: str, rules: tuple[Rule, ...], doomed: set[int]) -> str:
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
        found = parse_rules(text, "")
    except (YAMLError, ValueError):
        return False
    return [rule.model_dump() for rule in found] == [rule.model_dump() for rule in expected]
