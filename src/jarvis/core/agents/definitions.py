"""Reading `~/.jarvis/agents/*.yaml` and `~/.jarvis/team/*.yaml`, each file on its own: a broken
file keeps its last good version live and is reported (`jarvis extensions`, the HUD's ACTIVITY).

The extension watcher calls `read_agents` / `read_team` in a worker thread and applies the result
on the event loop; listeners (the app's agent registry) then rebuild what depends on them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from ruamel.yaml import YAML

from jarvis.core.agents.specs import SubAgentSpec, TeamAgentSpec
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
from jarvis.model_layer.config import ModelSettings

_SUFFIXES = (".yaml", ".yml")
_TEAM_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
MAIN_AGENT = "main"


@dataclass(frozen=True)
class TeamAgent:
    agent_id: str
    spec: TeamAgentSpec
    # The app's model settings with the file's keys applied (None: the app's own).
    model: ModelSettings | None
    file: Path


def _yaml(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def _invalid(exc: ValidationError) -> InvalidExtension:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "file"
    return InvalidExtension(f"{where}: {first['msg']} ({exc.error_count()} error(s))")


def read_subagent_file(path: Path) -> list[SubAgentSpec]:
    """One sub-agent or a list of them."""
    data = _yaml(path)
    items = data if isinstance(data, list) else [data]
    if not items or not all(isinstance(item, dict) for item in items):
        raise InvalidExtension("expected a mapping or a list of mappings")
    try:
        return [SubAgentSpec.model_validate(item) for item in items]
    except ValidationError as exc:
        raise _invalid(exc) from None


def read_team_file(path: Path, base_model: ModelSettings) -> TeamAgent:
    agent_id = path.stem
    if not _TEAM_ID.match(agent_id) or agent_id == MAIN_AGENT:
        raise InvalidExtension(f"{agent_id!r} is not a usable agent id (a-z, 0-9, -, _; not main)")
    data = _yaml(path)
    if not isinstance(data, dict):
        raise InvalidExtension("expected a mapping")
    try:
        spec = TeamAgentSpec.model_validate(data)
        model = None
        if spec.model:
            merged = {**base_model.model_dump(), **spec.model}
            model = ModelSettings.model_validate(merged)
    except ValidationError as exc:
        raise _invalid(exc) from None
    return TeamAgent(agent_id, spec, model, path)


def _outcomes(folder: Path, read: Callable[[Path], Any]) -> dict[str, Any]:
    outcomes: dict[str, Any] = {}
    for path in extension_files(folder, _SUFFIXES):
        try:
            outcomes[str(path)] = read(path)
        except Exception as exc:  # any failure is this file's, reported, never raised
            outcomes[str(path)] = LoadError(path, describe_failure(exc))
    return outcomes


class AgentDefinitions:
    """The live sub-agent and team definitions of one home."""

    def __init__(self, home: Path, base_model: ModelSettings) -> None:
        self.home = home
        self.base_model = base_model
        self.subagents: dict[str, SubAgentSpec] = {}
        self.team: dict[str, TeamAgent] = {}
        self._agent_files: LastGood[list[SubAgentSpec]] = LastGood()
        self._team_files: LastGood[TeamAgent] = LastGood()
        self._rows: dict[str, list[ExtensionStatus]] = {"agents": [], "team": []}
        self.listeners: list[Callable[[], None]] = []

    def initial_load(self) -> None:
        self.read_agents()()
        self.read_team()()

    def read_agents(self) -> Callable[[], None]:
        folder = self.home / "agents"
        outcomes = _outcomes(folder, read_subagent_file)
        return lambda: self._apply_agents(outcomes)

    def read_team(self) -> Callable[[], None]:
        folder = self.home / "team"
        outcomes = _outcomes(folder, lambda path: read_team_file(path, self.base_model))
        return lambda: self._apply_team(outcomes)

    def _apply_agents(self, outcomes: dict[str, list[SubAgentSpec] | LoadError]) -> None:
        groups, errors = self._agent_files.settle(outcomes)
        specs: dict[str, SubAgentSpec] = {}
        rows = [failed("agent", error) for error in errors]
        for group in groups:
            for spec in group:
                specs[spec.name] = spec  # the later file wins a clash of names
        for spec in specs.values():
            rows.append(loaded("agent", spec.name, self.home / "agents", spec.description))
        self.subagents = specs
        self._rows["agents"] = rows
        self._changed()

    def _apply_team(self, outcomes: dict[str, TeamAgent | LoadError]) -> None:
        agents, errors = self._team_files.settle(outcomes)
        self.team = {agent.agent_id: agent for agent in agents}
        rows = [failed("team", error) for error in errors]
        rows += [loaded("team", a.agent_id, a.file, a.spec.name) for a in agents]
        self._rows["team"] = rows
        self._changed()

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def status(self) -> list[ExtensionStatus]:
        return self._rows["agents"] + self._rows["team"]
