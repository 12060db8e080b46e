"""A source's status file, `~/.jarvis/external_sources/<id>.status.json`, beside its definition
(atomic; a missing or unreadable file is a fresh status)."""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path

from jarvis.common.atomic import atomic_write_text
from jarvis.core.sources.definition import FOLDER
from jarvis.core.sources.poll import SourceStatus

_FIELDS = {f.name for f in fields(SourceStatus)}


def status_file(home: Path, source_id: str) -> Path:
    return home / FOLDER / f"{source_id}.status.json"


def read_status(home: Path, source_id: str) -> SourceStatus:
    try:
        raw = json.loads(status_file(home, source_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return SourceStatus()
    if not isinstance(raw, dict):
        return SourceStatus()
    return SourceStatus(**{k: v for k, v in raw.items() if k in _FIELDS})


def write_status(home: Path, source_id: str, status: SourceStatus) -> None:
    path = status_file(home, source_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(asdict(status), ensure_ascii=False, indent=1))
