"""Reconnect MCP servers when `config.yaml` or `mcp.json` changes — only the changed servers."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from jarvis.app.mcp_config import MCP_JSON, RECONNECT_FILE, server_set
from jarvis.app.settings import CONFIG_FILE, Settings, SettingsError, load_settings
from jarvis.common import inotify
from jarvis.common.logging import get_logger
from jarvis.core.mcp import MCPManager

_log = get_logger("jarvis.app")


class McpConfigWatcher:
    def __init__(self, settings: Settings, mcp: MCPManager) -> None:
        self.settings = settings
        self.mcp = mcp
        self.path = settings.home.expanduser().resolve() / CONFIG_FILE
        self.reconnect_file = self.path.parent / RECONNECT_FILE
        self.paths = {str(self.path), str(self.path.parent / MCP_JSON), str(self.reconnect_file)}
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        async for paths in self._changes():
            if str(self.reconnect_file) in paths:
                self.reconnect()
            if paths - {str(self.reconnect_file)}:
                await self.reload()

    async def _changes(self) -> AsyncIterator[set[str]]:
        """Changes of the watched files: inotify on the event loop on Linux (no wake-ups while
        nothing changes), watchfiles elsewhere (waking every 50 ms; an edit applies ~50 ms
        later, waking more often only burns idle CPU)."""
        names = {Path(path).name for path in self.paths}
        async for paths in inotify.watch_folder(self.path.parent, names.__contains__, self._stop):
            yield paths & self.paths

    def reconnect(self) -> None:
        try:
            name = self.reconnect_file.read_text(encoding="utf-8").strip()
            self.reconnect_file.unlink()
        except OSError:
            return  # already handled (the deletion is a change too)
        try:
            self.mcp.reconnect(None if name in ("", "*") else name)
        except KeyError:
            _log.warning("jarvis mcp reconnect: no MCP server %r", name)

    async def reload(self) -> None:
        try:
            fresh = load_settings(home=self.settings.home)
        except SettingsError as exc:  # keep the running servers; say what is wrong
            _log.error("config.yaml not applied: %s", exc)
            return
        servers = server_set(fresh)
        await self.mcp.apply(servers.configs, servers.problems)
