"""A source definition, `~/.jarvis/external_sources/<id>.yaml` (the file name is the id):

    url: https://example.org/feed.xml
    every: 30 minutes            # or "2 hours", "1 day", "15m", "1h"
    match: [python, release]     # keywords (any of them, case-insensitive); empty = every entry
    interests: true              # also match the owner's interests from the user model
    notify: digest               # digest | immediate | off
    max_per_day: 20
    owner: local
    enabled: false               # true only after the owner pre-approved web_fetch to its host

Fetching is a gated `web_fetch` to the URL's host: the owner pre-approves the pair
(`source:<id>`, `web_fetch`) as for a schedule's tools; the fingerprint is the host, so a
move to another host voids the grant and a move within the host does not.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, ValidationError, field_validator
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from jarvis.common.atomic import atomic_write_text
from jarvis.core.scheduler.definitions import DEFINITION_ID
from jarvis.core.scheduler.grants import definition_fingerprint

Notify = Literal["digest", "immediate", "off"]
FOLDER = "external_sources"
_EVERY = re.compile(
    r"^(?:every\s+)?(\d+)\s*(m|min|mins|minute|minutes|h|hr|hour|hours|d|day|days)$"
)
_UNIT_SEC = {"m": 60, "h": 3600, "d": 86400}
MIN_EVERY_SEC = 60


def every_seconds(text: str) -> int:
    """'30 minutes' → 1800; raises ValueError with the reason."""
    found = _EVERY.match(text.strip().lower())
    if found is None:
        raise ValueError(f"{text!r} is not like '30 minutes', '2 hours' or '1 day'")
    seconds = int(found.group(1)) * _UNIT_SEC[found.group(2)[0]]
    if seconds < MIN_EVERY_SEC:
        raise ValueError(f"{text!r} is shorter than one minute")
    return seconds


class Source(BaseModel):
    id: str = ""
    url: str
    every: str = "1 hour"
    match: list[str] = Field(default_factory=list)
    interests: bool = False  # also match the owner's `interests` in the user model
    notify: Notify = "digest"
    max_per_day: int = Field(default=20, ge=1, le=1000)
    owner: str = "local"
    enabled: bool = False
    agent: str = "main"
    # Always exactly web_fetch (a file cannot say otherwise): what the owner pre-approves.
    tools: list[str] = Field(default_factory=lambda: ["web_fetch"], exclude=True)

    @field_validator("tools")
    @classmethod
    def _only_web_fetch(cls, value: list[str]) -> list[str]:
        return ["web_fetch"]

    @field_validator("url")
    @classmethod
    def _valid_url(cls, value: str) -> str:
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{value!r} is not an http(s) URL")
        return value.strip()

    @field_validator("every")
    @classmethod
    def _valid_every(cls, value: str) -> str:
        every_seconds(value)
        return value

    @property
    def key(self) -> str:
        return f"source:{self.id}"

    @property
    def host(self) -> str:
        return (urlsplit(self.url).hostname or "").lower()

    @property
    def every_sec(self) -> int:
        return every_seconds(self.every)

    def fingerprint(self) -> str:
        """What the owner agreed to: web_fetch to this host."""
        return definition_fingerprint("source", "", {"host": self.host, "tools": ["web_fetch"]})


def source_file(home: Path, source_id: str) -> Path:
    if not DEFINITION_ID.match(source_id):
        raise ValueError(f"invalid source id {source_id!r}: use a-z, 0-9, '-' and '_'")
    return home / FOLDER / f"{source_id}.yaml"


def one_line_error(exc: Exception) -> str:
    """A definition error as one line: the first problem, where it is."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "file"
        message = str(first["msg"]).removeprefix("Value error, ")
        return f"{where}: {message}"
    return " ".join(str(exc).split())


def parse_source(source_id: str, text: str) -> Source:
    """A definition from YAML text; raises ValueError with one line."""
    try:
        data: Any = YAML(typ="safe").load(text)
    except YAMLError as exc:
        raise ValueError(f"not YAML: {one_line_error(exc)}") from exc
    if not isinstance(data, dict):
        raise ValueError("not a mapping of settings (url, every, match, notify, ...)")
    try:
        return Source.model_validate({**data, "id": source_id})
    except ValidationError as exc:
        raise ValueError(one_line_error(exc)) from exc


def load_sources(home: Path) -> tuple[list[Source], dict[str, str]]:
    """Every valid source, and the broken files with why (id → one line)."""
    found: list[Source] = []
    errors: dict[str, str] = {}
    folder = home / FOLDER
    if not folder.is_dir():
        return found, errors
    for path in sorted(folder.glob("*.yaml")):
        if not DEFINITION_ID.match(path.stem):
            errors[path.stem] = "invalid file name: use a-z, 0-9, '-' and '_'"
            continue
        try:
            found.append(parse_source(path.stem, path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            errors[path.stem] = str(exc)
    return found, errors


EDITABLE = ("notify", "max_per_day")


def edited_text(source_id: str, text: str, changes: dict[str, Any]) -> tuple[str, Source]:
    """The definition's YAML with `changes` (of `EDITABLE`) set, everything else — comments,
    keys, order — kept; and the source it defines. ValueError with one line when a change is
    not editable or the result would not be a valid source (nothing is written then)."""
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise ValueError(f"{unknown[0]}: not editable here (only {', '.join(EDITABLE)})")
    yaml = YAML()  # round-trip: comments and order survive
    try:
        data: Any = yaml.load(text)
    except YAMLError as exc:
        raise ValueError(f"not YAML: {one_line_error(exc)}") from exc
    if not isinstance(data, dict):
        raise ValueError("not a mapping of settings (url, every, match, notify, ...)")
    for key, value in changes.items():
        data[key] = int(value) if isinstance(value, str) and value.strip().isdigit() else value
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue(), parse_source(source_id, out.getvalue())


def write_source(home: Path, source: Source) -> Path:
    path = source_file(home, source.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = source.model_dump(exclude={"id", "agent"})
    lines = [f"url: {_yaml_scalar(data['url'])}", f"every: {data['every']}"]
    lines.append("match: [" + ", ".join(_yaml_scalar(m) for m in data["match"]) + "]")
    if data["interests"]:
        lines.append("interests: true")
    lines += [
        f"notify: {data['notify']}",
        f"max_per_day: {data['max_per_day']}",
        f"owner: {_yaml_scalar(data['owner'])}",
        f"enabled: {'true' if data['enabled'] else 'false'}",
    ]
    atomic_write_text(path, "\n".join(lines) + "\n")
    return path


def _yaml_scalar(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # JSON strings are YAML flow scalars
