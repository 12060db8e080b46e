"""User tools from `~/.jarvis/tools/`: a `.py` with TOOL_* constants and `execute`, or a `.yaml`
declaration whose `execute` comes from the `.py` of the same stem."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from ruamel.yaml import YAML

from jarvis.agent_layer.tools import ExecutionMode, ToolResult
from jarvis.core.confine import Confiner
from jarvis.core.confine.judge import network_granted
from jarvis.core.extensions.report import (
    ExtensionStatus,
    InvalidExtension,
    LastGood,
    LoadError,
    compile_module,
    describe_failure,
    extension_files,
    failed,
    loaded,
)
from jarvis.core.tools.base import Tool, ToolEnv, ToolSource

_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
_MODES: tuple[ExecutionMode, ...] = ("parallel", "sequential")


@dataclass(frozen=True)
class ToolDeclaration:
    name: str
    description: str
    parameters: dict[str, Any]
    execution_mode: ExecutionMode = "parallel"


class UserTool(Tool):
    """A tool defined by a file in the tools folder."""

    def __init__(
        self,
        declaration: ToolDeclaration,
        run: Callable[..., Any],
        file_name: str,
        confiner: Confiner | None = None,
    ) -> None:
        self._confiner = confiner
        # Tool declares these as ClassVars; a user tool is only known at run time.
        self.name = declaration.name  # type: ignore[misc]
        self.description = declaration.description  # type: ignore[misc]
        self.parameters = declaration.parameters  # type: ignore[misc]
        self.execution_mode = declaration.execution_mode  # type: ignore[misc]
        self._run = run
        self._takes_env = _accepts_keyword(run, "env")
        self._source = ToolSource(kind="user", name=file_name)

    @property
    def source(self) -> ToolSource:
        return self._source

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        try:
            extra = {"env": self._with_confine(env)} if self._takes_env else {}
            value = self._run(call_id, args, **extra)
            if inspect.isawaitable(value):
                value = await value
        except Exception as exc:
            return ToolResult(
                content=f"{self.name} failed: {exc or type(exc).__name__}", is_error=True
            )
        return _to_result(value)

    def _with_confine(self, env: ToolEnv) -> ToolEnv:
        """`env.confine(argv)`: the processes this tool starts run in the OS sandbox, with the
        network only when a person approved this call."""
        box = self._confiner
        if box is None or box.mode == "off":
            return env
        network = bool(env.decision) and network_granted(env.decision, "")

        def confine(argv: Sequence[str]) -> list[str]:
            return box.server(argv, env.workspace, network, ())

        return dataclasses.replace(env, confine=confine)


@dataclass
class LoadResult:
    tools: list[Tool] = field(default_factory=list)
    errors: list[LoadError] = field(default_factory=list)


class UserToolLoader:
    """Reads one tools folder, remembering each file's last good tool."""

    def __init__(self, directory: Path, confiner: Confiner | None = None) -> None:
        self.directory = directory
        self._confiner = confiner
        self._last_good: LastGood[Tool] = LastGood()
        self.result = LoadResult()

    def load(self) -> LoadResult:
        outcomes = {
            stem: _load_stem(self.directory, stem, self._confiner)
            for stem in _stems(self.directory)
        }
        tools, errors = self._last_good.settle(outcomes)
        unique, clashes = _first_of_each_name(self.directory, tools)
        self.result = LoadResult(unique, errors + clashes)
        return self.result

    def status(self) -> list[ExtensionStatus]:
        rows = [
            loaded("tool", tool.name, self.directory / tool.source.name, tool.description)
            for tool in self.result.tools
        ]
        return rows + [failed("tool", error) for error in self.result.errors]


def load_tools_dir(path: Path) -> LoadResult:
    """Load every tool file in `path` once (no memory of earlier versions)."""
    return UserToolLoader(path).load()


def _stems(directory: Path) -> list[str]:
    return sorted({path.stem for path in extension_files(directory, (".py", ".yaml"))})


def _load_stem(directory: Path, stem: str, confiner: Confiner | None = None) -> Tool | LoadError:
    py, declaration_file = directory / f"{stem}.py", directory / f"{stem}.yaml"
    declared: ToolDeclaration | None = None
    if declaration_file.is_file():
        try:
            declared = _read_declaration(declaration_file)
        except Exception as exc:
            return LoadError(declaration_file, describe_failure(exc))
        if not py.is_file():
            return LoadError(
                declaration_file,
                f"no {py.name} beside it to take execute from; the tool is not registered",
            )
    try:
        module = compile_module(py, f"jarvis_extensions.tools.{stem}")
        return UserTool(
            declared or _module_declaration(module, py), _execute_of(module), py.name, confiner
        )
    except (Exception, SystemExit) as exc:
        return LoadError(py, describe_failure(exc))


def _read_declaration(path: Path) -> ToolDeclaration:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise InvalidExtension("expected a mapping with name, description and parameters")
    mode = data.get("execution_mode", "parallel")
    if mode not in _MODES:
        raise InvalidExtension(f"execution_mode must be parallel or sequential, not {mode!r}")
    return ToolDeclaration(
        name=_text(data.get("name"), "name"),
        description=_text(data.get("description", ""), "description", allow_empty=True),
        parameters=_schema(data.get("parameters", _EMPTY_SCHEMA), "parameters"),
        execution_mode=mode,
    )


def _module_declaration(module: ModuleType, py: Path) -> ToolDeclaration:
    return ToolDeclaration(
        name=_text(getattr(module, "TOOL_NAME", py.stem.replace("_", "-")), "TOOL_NAME"),
        description=_text(
            getattr(module, "TOOL_DESCRIPTION", ""), "TOOL_DESCRIPTION", allow_empty=True
        ),
        parameters=_schema(getattr(module, "TOOL_PARAMETERS", _EMPTY_SCHEMA), "TOOL_PARAMETERS"),
    )


def _execute_of(module: ModuleType) -> Callable[..., Any]:
    run = getattr(module, "execute", None)
    if not callable(run):
        raise InvalidExtension("no execute(tool_call_id, params, **kwargs) function")
    return cast(Callable[..., Any], run)


def _text(value: Any, key: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str) or not (value.strip() or allow_empty):
        raise InvalidExtension(f"{key} must be a {'' if allow_empty else 'non-empty '}string")
    return value.strip()


def _schema(value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidExtension(f"{key} must be a JSON schema object")
    return value


def _accepts_keyword(run: Callable[..., Any], name: str) -> bool:
    try:
        parameters = inspect.signature(run).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind is p.VAR_KEYWORD or p.name == name for p in parameters)


def _to_result(value: Any) -> ToolResult:
    if isinstance(value, dict) and "content" in value:
        is_error = value.get("is_error") is True
        return ToolResult(content=_as_text(value["content"]), is_error=is_error)
    return ToolResult(content=_as_text(value))


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def _first_of_each_name(directory: Path, tools: list[Tool]) -> tuple[list[Tool], list[LoadError]]:
    """Two files declaring one name: the first file (by name) wins, the other is reported."""
    owners: dict[str, Tool] = {}
    clashes: list[LoadError] = []
    for tool in tools:
        owner = owners.setdefault(tool.name, tool)
        if owner is not tool:
            clashes.append(
                LoadError(
                    directory / tool.source.name,
                    f"tool name {tool.name!r} is already defined by {owner.source.name}; skipped",
                )
            )
    return list(owners.values()), clashes
