"""Procedure files on disk: `~/.jarvis/procedures/<name>.md`, archived ones in `.archive/`.

Files are written to a temporary name and renamed, so a reader never sees half a file, and the
directory's change time tells the cache when to read again (the tool list is asked every turn).
"""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path

from pydantic import ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from jarvis.common.logging import get_logger
from jarvis.core.procedures.model import MAIN_AGENT, Procedure

_log = get_logger("jarvis.procedures")
ARCHIVE = ".archive"
_FENCE = "---\n"


def render(procedure: Procedure) -> str:
    data = procedure.model_dump(mode="json", exclude={"body"}, exclude_defaults=True)
    data.setdefault("name", procedure.name)
    data.setdefault("status", procedure.status)
    buffer = io.StringIO()
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    yaml.dump(data, buffer)
    return f"{_FENCE}{buffer.getvalue()}{_FENCE}{procedure.body.rstrip()}\n"


def parse(text: str) -> Procedure:
    if not text.startswith(_FENCE):
        raise ValueError("no frontmatter")
    head, sep, body = text[len(_FENCE) :].partition(_FENCE)
    if not sep:
        raise ValueError("frontmatter not closed")
    data = YAML(typ="safe", pure=True).load(head) or {}
    if not isinstance(data, dict):
        raise ValueError("frontmatter is not a mapping")
    data.setdefault("agent", MAIN_AGENT)
    return Procedure.model_validate({**data, "body": body.strip()})


def unique_name(base: str, taken: set[str], salt: str) -> str:
    """`base`, or `base-<6 hex>` when another file already has that name."""
    if base not in taken:
        return base
    return f"{base}-{hashlib.sha256(salt.encode()).hexdigest()[:6]}"


class ProcedureLibrary:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: tuple[int, list[tuple[Path, Procedure]]] | None = None

    @property
    def archive_dir(self) -> Path:
        return self.root / ARCHIVE

    def entries(self) -> list[tuple[Path, Procedure]]:
        """Every readable procedure file (archived ones never), by name."""
        try:
            stamp = self.root.stat().st_mtime_ns
        except FileNotFoundError:
            return []
        if self._cache is not None and self._cache[0] == stamp:
            return self._cache[1]
        found: list[tuple[Path, Procedure]] = []
        for path in sorted(self.root.glob("*.md")):
            try:
                found.append((path, parse(path.read_text(encoding="utf-8"))))
            except (OSError, ValueError, YAMLError, ValidationError) as exc:
                _log.warning("procedure file %s skipped: %s", path.name, exc)
        self._cache = (stamp, found)
        return found

    def all(self) -> list[Procedure]:
        return [procedure for _, procedure in self.entries()]

    def of_agent(self, agent: str) -> list[Procedure]:
        return [p for p in self.all() if p.agent == agent]

    def get(self, agent: str, name: str) -> Procedure | None:
        return next((p for p in self.of_agent(agent) if p.name == name), None)

    def path_of(self, name: str) -> Path:
        return self.root / f"{name}.md"

    def save(self, procedure: Procedure) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        target = self.path_of(procedure.name)
        temporary = target.with_suffix(".md.tmp")
        temporary.write_text(render(procedure), encoding="utf-8")
        os.replace(temporary, target)
        self._touch()

    def delete(self, name: str) -> None:
        self.path_of(name).unlink(missing_ok=True)
        self._touch()

    def archive(self, path: Path) -> Path:
        """Move a file out of the loaded set (never deleted: converging can be undone)."""
        self.archive_dir.mkdir(parents=True, exist_ok=True)
        target = self.archive_dir / path.name
        if target.exists():
            target = (
                self.archive_dir
                / f"{path.stem}-{hashlib.sha256(str(path).encode()).hexdigest()[:6]}.md"
            )
        os.replace(path, target)
        self._touch()
        return target

    def archived(self) -> list[Path]:
        return sorted(self.archive_dir.glob("*.md")) if self.archive_dir.is_dir() else []

    def _touch(self) -> None:
        # Same-second writes may keep the directory's mtime: forget the cache outright.
        self._cache = None
