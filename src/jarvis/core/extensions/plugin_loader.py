"""Plugins from `~/.jarvis/plugins/*.py`: the first class a file defines with `name` and
`version`, made with no arguments. It need not inherit `JarvisPlugin`; the host skips hooks a
plugin lacks."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

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
from jarvis.core.plugins.host import PluginHost


@dataclass(frozen=True)
class LoadedPlugin:
    plugin: Any
    file: Path

    @property
    def name(self) -> str:
        return str(getattr(self.plugin, "name", type(self.plugin).__name__))


@dataclass
class PluginLoadResult:
    plugins: list[LoadedPlugin] = field(default_factory=list)
    errors: list[LoadError] = field(default_factory=list)


class PluginLoader:
    """Reads one plugins folder into a host, remembering each file's last good plugin."""

    def __init__(self, directory: Path, host: PluginHost) -> None:
        self.directory = directory
        self._host = host
        self._last_good: LastGood[LoadedPlugin] = LastGood()
        self.result = PluginLoadResult()

    def load(self) -> PluginLoadResult:
        return self.apply(self.read())

    def read(self) -> PluginLoadResult:
        """Import the folder's plugins (user code: a watcher runs this in a worker thread)."""
        return self._read()

    def apply(self, result: PluginLoadResult) -> PluginLoadResult:
        """Swap what `read` found into the host (on the event loop, between hook calls)."""
        # Only what this loader put there is swapped; plugins registered in code stay.
        self._host.replace(
            [p.plugin for p in self.result.plugins], [p.plugin for p in result.plugins]
        )
        self.result = result
        return result

    def status(self) -> list[ExtensionStatus]:
        rows = [
            loaded("plugin", p.name, p.file, str(getattr(p.plugin, "version", "")))
            for p in self.result.plugins
        ]
        return rows + [failed("plugin", error) for error in self.result.errors]

    def _read(self) -> PluginLoadResult:
        files = extension_files(self.directory, (".py",))
        plugins, errors = self._last_good.settle({str(f): _load_plugin(f) for f in files})
        return PluginLoadResult(plugins, errors)


def load_plugins_dir(path: Path) -> PluginLoadResult:
    """Read every plugin file in `path` once, without registering anything."""
    return PluginLoader(path, PluginHost())._read()


def _load_plugin(path: Path) -> LoadedPlugin | LoadError:
    try:
        module = compile_module(path, f"jarvis_extensions.plugins.{path.stem}")
        return LoadedPlugin(_plugin_class(module)(), path)
    except (Exception, SystemExit) as exc:
        return LoadError(path, describe_failure(exc))


def _plugin_class(module: ModuleType) -> type[Any]:
    for value in vars(module).values():
        # Defined here, not imported: `JarvisPlugin` itself has name and version too.
        if (
            isinstance(value, type)
            and value.__module__ == module.__name__
            and hasattr(value, "name")
            and hasattr(value, "version")
        ):
            return value
    raise InvalidExtension("no class with name and version attributes")
