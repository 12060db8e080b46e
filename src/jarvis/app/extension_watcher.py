"""Hot reload of `~/.jarvis/tools`, `skills` and `plugins`: a change re-reads only its folder.

On Linux the home's own entries and the wanted folders (recursively) are watched with inotify
on the event loop (`common.inotify`): nothing wakes while nothing changes, a folder created or
moved in after start-up is watched from then on, and writes elsewhere in the home (sessions,
memory, the audit log) never reach the process. Elsewhere the whole home is watched with
watchfiles and a filter drops everything else. Sessions re-read the registry every turn, so a
reload shows up on the next turn.

Reading a folder runs user code (a tool's or plugin's module body) and file I/O, so it happens
in a worker thread; only swapping the result into the registry, skills or plugin host runs on
the event loop. A tool whose import sleeps for seconds delays its own folder, never a request.
Reloads are serialised (one folder read at a time), so loaders never run concurrently.
`initial_load` stays synchronous for callers without a running server (the admin CLI, and
start-up with watching off, before the server accepts connections).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path

from watchfiles import Change, awatch

from jarvis.common import inotify
from jarvis.common.logging import get_logger
from jarvis.core.agents.definitions import AgentDefinitions
from jarvis.core.confine import Confiner
from jarvis.core.extensions import (
    ExtensionKind,
    ExtensionStatus,
    PluginLoader,
    SkillRegistry,
    UserToolLoader,
    read_skills,
)
from jarvis.core.plugins import PluginHost
from jarvis.core.tools.registry import ToolRegistry

_log = get_logger("jarvis.extensions")

_KINDS: dict[str, ExtensionKind] = {
    "tools": "tool",
    "skills": "skill",
    "plugins": "plugin",
    "agents": "agent",
    "team": "team",
}
# Off Linux (watchfiles; on Linux `common.inotify` wakes only on a change). See REFERENCES.md:
# at the defaults a write is reported ~55 ms later. The watcher also wakes every `step` to check
# for a stop, taking the GIL: at 1 ms that cost 1.8 % of a core while idle; 3 ms costs 0.7 %
# and still reports a write in ~10 ms (benchmarks/tool_reload.py).
_STEP_MS = 3
_DEBOUNCE_MS = 50


class ExtensionWatcher:
    def __init__(
        self,
        home: Path,
        registry: ToolRegistry,
        plugins: PluginHost,
        skills: SkillRegistry,
        definitions: AgentDefinitions | None = None,
        confiner: Confiner | None = None,
    ) -> None:
        # Resolved so the paths watchfiles reports start with it.
        self.home = home.expanduser().resolve()
        self._registry = registry
        self._skills = skills
        self._tools = UserToolLoader(self.home / "tools", confiner)
        self._plugins = PluginLoader(self.home / "plugins", plugins)
        self._readers: dict[str, Callable[[], Callable[[], None]]] = {
            "tools": self._read_tools,
            "skills": self._read_skills,
            "plugins": self._read_plugins,
        }
        self._definitions = definitions
        if definitions is not None:  # sub-agent and team files reload like tools
            self._readers["agents"] = definitions.read_agents
            self._readers["team"] = definitions.read_team
        self._reload_lock = asyncio.Lock()
        self._folder_failures: dict[str, ExtensionStatus] = {}
        self._logged: set[str] = set()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def initial_load(self) -> None:
        """Read all three folders now, on this thread (no running server to keep serving)."""
        for folder in self._readers:
            self._settle(folder, self._read(folder))
        self._log_new_errors()

    async def start(self) -> None:
        if self._task is not None:
            return
        self.home.mkdir(parents=True, exist_ok=True)
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._watch(), name="extension-watcher")
        # The task's first step creates the OS watches before its first await; after it, one
        # full read catches anything changed before the watches existed.
        await asyncio.sleep(0)
        await self.reload(list(self._readers))

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        self._stop.set()
        await task

    async def reload(self, folders: Iterable[str]) -> None:
        """Re-read these folders off the event loop; one that fails unexpectedly does not stop
        the others."""
        async with self._reload_lock:
            for folder in folders:
                self._settle(folder, await asyncio.to_thread(self._read, folder))
            self._log_new_errors()

    def _read(self, folder: str) -> Callable[[], None] | Exception:
        try:
            return self._readers[folder]()
        except Exception as exc:
            return exc

    def _settle(self, folder: str, read: Callable[[], None] | Exception) -> None:
        """Apply one folder's read, or record why the folder failed."""
        try:
            if isinstance(read, Exception):
                raise read
            read()
            self._folder_failures.pop(folder, None)
        except Exception as exc:
            _log.exception("reloading %s failed", self.home / folder)
            self._folder_failures[folder] = ExtensionStatus(
                _KINDS[folder], folder, self.home / folder, ok=False, detail=f"{exc!r}"
            )

    def status(self) -> list[ExtensionStatus]:
        """Loaded tools, skills and plugins, then every file or folder that failed and why."""
        rows = self._tools.status() + self._skills.status() + self._plugins.status()
        if self._definitions is not None:
            rows += self._definitions.status()
        rows += self._folder_failures.values()
        return sorted(rows, key=lambda row: not row.ok)

    async def _watch(self) -> None:
        try:
            async for paths in self._changes():
                await self.reload(sorted({self._folder_of(path) for path in paths}))
        except Exception:
            # ponytail: a dead watcher (home deleted, inotify limit) is logged, not retried;
            # the extensions loaded so far stay.
            _log.exception("watching %s stopped", self.home)

    async def _changes(self) -> AsyncIterator[set[str]]:
        """Changed paths under the wanted folders: inotify on the event loop on Linux (no
        wake-ups while nothing changes), watchfiles elsewhere. Either creates its OS watches
        before its first await."""
        if inotify.available():
            watch = inotify.InotifyWatch(self.home, lambda name: name in self._readers)
            async for paths in watch.changes(self._stop):
                yield paths
            return
        async for changes in awatch(
            self.home,
            watch_filter=self._wanted,
            step=_STEP_MS,
            debounce=_DEBOUNCE_MS,
            stop_event=self._stop,
            recursive=True,
        ):
            yield {path for _, path in changes}

    def _wanted(self, change: Change, path: str) -> bool:
        return self._folder_of(path) in self._readers

    def _folder_of(self, path: str) -> str:
        # A moved or deleted folder is reported as the folder alone: re-reading it covers that.
        try:
            parts = Path(path).relative_to(self.home).parts
        except ValueError:
            return ""
        return parts[0] if parts else ""

    # Each reader runs in a worker thread and returns what to apply on the loop.

    def _read_tools(self) -> Callable[[], None]:
        tools = self._tools.load().tools

        def apply() -> None:
            self._registry.replace_layer("user", tools)

        return apply

    def _read_skills(self) -> Callable[[], None]:
        folder = self.home / "skills"
        outcomes = read_skills(folder)

        def apply() -> None:
            self._skills.apply(folder, outcomes)

        return apply

    def _read_plugins(self) -> Callable[[], None]:
        result = self._plugins.read()

        def apply() -> None:
            self._plugins.apply(result)

        return apply

    def _log_new_errors(self) -> None:
        """Each failure is logged once, when it first appears; `status()` keeps showing it."""
        current = {f"{row.kind} {row.detail}" for row in self.status() if not row.ok}
        for failure in sorted(current - self._logged):
            _log.warning("extension not loaded: %s", failure)
        self._logged = current
