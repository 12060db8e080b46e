"""Skills from `~/.jarvis/skills/`: `/name rest` expands a prompt template. `*.md` files carry a
YAML frontmatter (name, description, aliases) over the body; `*.yaml` files hold a `prompt`."""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from jarvis.core.extensions.report import (
    ExtensionStatus,
    InvalidExtension,
    LastGood,
    LoadError,
    describe_failure,
    extension_files,
    failed,
    loaded,
)

_PLACEHOLDER = re.compile(r"\{\{\s*(?:args|input)\s*\}\}")
_COMMAND = re.compile(r"/(\S+)(?:\s+(.*))?", re.DOTALL)
_FRONTMATTER = re.compile(r"---[ \t]*\r?\n(.*?)^---[ \t]*(?:\r?\n|$)(.*)", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    aliases: tuple[str, ...]
    prompt: str
    file: Path

    def render(self, args: str) -> str:
        return _PLACEHOLDER.sub(lambda _: args, self.prompt)


class SkillRegistry:
    """Skills by name and alias; `load_dir` replaces them all, keeping each file's last good one."""

    def __init__(self) -> None:
        self._by_name: dict[str, Skill] = {}
        self._skills: list[Skill] = []
        self._last_good: LastGood[Skill] = LastGood()
        self.errors: list[LoadError] = []
        self.directory: Path | None = None

    def load_dir(self, path: Path) -> list[LoadError]:
        return self.apply(path, read_skills(path))

    def apply(self, path: Path, outcomes: dict[str, Skill | LoadError]) -> list[LoadError]:
        """Replace the skills with what `read_skills` found (on the event loop)."""
        self.directory = path
        skills, errors = self._last_good.settle(outcomes)
        by_name, clashes = _index(skills)
        self._skills = [skill for skill in skills if by_name.get(skill.name) is skill]
        self._by_name = by_name
        self.errors = errors + clashes
        return self.errors

    def get(self, name_or_alias: str) -> Skill | None:
        return self._by_name.get(name_or_alias)

    def list(self) -> list[Skill]:
        return list(self._skills)

    def expand(self, text: str) -> str | None:
        """`/name rest` → the skill's prompt with the rest in `{{args}}`/`{{input}}`; None when
        the text is not a known skill command."""
        match = _COMMAND.fullmatch(text.strip())
        skill = self.get(match.group(1)) if match else None
        if match is None or skill is None:
            return None
        return skill.render((match.group(2) or "").strip())

    def status(self) -> builtins.list[ExtensionStatus]:
        rows = [
            loaded("skill", skill.name, skill.file, skill.description) for skill in self._skills
        ]
        return rows + [failed("skill", error) for error in self.errors]


def read_skills(path: Path) -> dict[str, Skill | LoadError]:
    """Every skill file in `path`, read and parsed (file I/O: a watcher runs it in a thread)."""
    return {str(file): _load_skill(file) for file in extension_files(path, (".md", ".yaml"))}


def _load_skill(path: Path) -> Skill | LoadError:
    try:
        text = path.read_text(encoding="utf-8")
        meta, prompt = _split_markdown(text) if path.suffix == ".md" else _split_yaml(text)
        return _skill(meta, prompt, path)
    except Exception as exc:
        return LoadError(path, describe_failure(exc))


def _split_markdown(text: str) -> tuple[dict[str, Any], str]:
    match = _FRONTMATTER.match(text.lstrip("\ufeff"))
    if match is None:
        raise InvalidExtension("no frontmatter: start the file with --- name: ... ---")
    return _mapping(YAML(typ="safe").load(match.group(1)) or {}), match.group(2)


def _split_yaml(text: str) -> tuple[dict[str, Any], str]:
    meta = _mapping(YAML(typ="safe").load(text))
    prompt = meta.get("prompt")
    if not isinstance(prompt, str):
        raise InvalidExtension("prompt must be a string")
    return meta, prompt


def _mapping(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidExtension("expected a mapping with name, description and aliases")
    return data


def _skill(meta: dict[str, Any], prompt: str, path: Path) -> Skill:
    name = meta.get("name", path.stem)
    if not isinstance(name, str) or not name.strip() or any(c.isspace() for c in name.strip()):
        raise InvalidExtension("name must be one word (the /name command)")
    description = meta.get("description") or ""
    return Skill(
        name.strip().lstrip("/"),
        str(description).strip(),
        _aliases(meta.get("aliases")),
        prompt.strip(),
        path,
    )


def _aliases(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(a, str) and a.strip() for a in items):
        raise InvalidExtension("aliases must be a list of words")
    return tuple(a.strip().lstrip("/") for a in items)


def _index(skills: list[Skill]) -> tuple[dict[str, Skill], list[LoadError]]:
    """Names first, then aliases; a taken name or alias stays with its first owner."""
    by_name: dict[str, Skill] = {}
    clashes: list[LoadError] = []
    for skill in skills:
        if by_name.setdefault(skill.name, skill) is not skill:
            clashes.append(_clash(skill, skill.name, by_name[skill.name]))
    for skill in skills:
        if by_name.get(skill.name) is not skill:
            continue
        for alias in skill.aliases:
            if by_name.setdefault(alias, skill) is not skill:
                clashes.append(_clash(skill, alias, by_name[alias]))
    return by_name, clashes


def _clash(skill: Skill, taken: str, owner: Skill) -> LoadError:
    return LoadError(skill.file, f"/{taken} is already defined by {owner.file.name}; skipped")
