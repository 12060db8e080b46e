"""How long after a tool file is saved can the tool be called (seed 003's experiment, Linux).

The real ExtensionWatcher, loader and registry run in a temp home; the registry is polled every
2 ms. Cases (30 each): a new file; an edit that changes the size, saved atomically (temp file +
rename, as editors do); a same-size re-save within one second (the bytecode-cache trap: the tool
is called and must return the new reply); a delete. Baselines: a static registry (no watcher)
and a restart that assembles the app in a new process (10 times).

    uv run python benchmarks/tool_reload.py
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import watchfiles

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.app.extension_watcher import ExtensionWatcher
from jarvis.core.extensions import SkillRegistry, load_tools_dir
from jarvis.core.plugins import PluginHost
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.registry import ToolRegistry

RUNS = 30
RESTARTS = 10
POLL_S = 0.002
TIMEOUT_S = 3.0
_RESTART_CODE = (
    "from jarvis.app.infra import build_app; from jarvis.app.settings import load_settings; "
    "build_app(load_settings())"
)


@dataclass
class Row:
    label: str
    times_ms: list[float] = field(default_factory=list)
    timeouts: int = 0
    note: str = ""

    def cells(self) -> str:
        if not self.times_ms:
            return f"| {self.label} | – | – | – | {self.note} |"
        ordered = sorted(self.times_ms)
        p50, p95 = _rank(ordered, 0.50), _rank(ordered, 0.95)
        count = f"{len(ordered)}/{len(ordered) + self.timeouts}, timeouts {self.timeouts}"
        note = f", {self.note}" if self.note else ""
        return (
            f"| {self.label} | {p50:.1f} ms | {p95:.1f} ms | {ordered[-1]:.1f} ms | {count}{note} |"
        )


def _rank(ordered: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    return ordered[max(0, min(len(ordered) - 1, round(q * len(ordered) + 0.5) - 1))]


def _source(name: str, reply: str) -> str:
    return (
        f"TOOL_NAME = {name!r}\n"
        f"async def execute(tool_call_id, params, **kw):\n    return {reply!r}\n"
    )


def _atomic_write(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.tmp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


async def _replies(
    registry: ToolRegistry, workspace: Path, name: str, expected: str | None
) -> bool:
    """Whether calling `name` now returns `expected` (None: the tool is not registered)."""
    tool = registry.get(name)
    if tool is None:
        return expected is None
    ctx = ToolCallContext(session_id="bench", agent_id="bench", turn=1, abort=asyncio.Event())
    return (await tool.execute("call", {}, ToolEnv(workspace, ctx))).content == expected


async def _time_until(check: Callable[[], Awaitable[bool]], started: float) -> float | None:
    """Milliseconds from `started` until `check` holds, polling every 2 ms; None on timeout."""
    while not await check():
        if time.perf_counter() - started > TIMEOUT_S:
            return None
        await asyncio.sleep(POLL_S)
    return (time.perf_counter() - started) * 1000


def _record(row: Row, elapsed: float | None) -> None:
    if elapsed is None:
        row.timeouts += 1
    else:
        row.times_ms.append(elapsed)


class _Bench:
    def __init__(self, home: Path) -> None:
        self.home = home
        self.tools = home / "tools"
        self.registry = ToolRegistry()
        self.watcher = ExtensionWatcher(home, self.registry, PluginHost(), SkillRegistry())

    async def replies(self, name: str, expected: str | None) -> bool:
        return await _replies(self.registry, self.home, name, expected)

    async def save_and_wait(
        self, path: Path, text: str, name: str, reply: str | None
    ) -> float | None:
        started = time.perf_counter()
        _atomic_write(path, text)
        return await _time_until(lambda: self.replies(name, reply), started)

    async def new_files(self) -> Row:
        row = Row("new file, watching")
        for i in range(RUNS):
            started = time.perf_counter()
            (self.tools / f"new_{i}.py").write_text(_source(f"new-{i}", "ok"), encoding="utf-8")
            _record(row, await _time_until(partial(self.replies, f"new-{i}", "ok"), started))
        return row

    async def edits(self) -> Row:
        row = Row("edited file (size changes, atomic save), watching")
        path = self.tools / "edit.py"
        await self.save_and_wait(path, _source("edit", "v"), "edit", "v")
        for i in range(RUNS):
            reply = "v" * (i + 2)
            _record(row, await self.save_and_wait(path, _source("edit", reply), "edit", reply))
        row.note = f"called after the change {len(row.times_ms)}/{RUNS}"
        return row

    async def same_size_resaves(self) -> Row:
        row = Row("same-size re-save within 1 s, watching")
        path = self.tools / "same.py"
        within_second = 0
        for i in range(RUNS):
            first, second = f"A{i:03d}", f"B{i:03d}"
            await self.save_and_wait(path, _source("same", first), "same", first)
            saved = path.stat().st_mtime
            elapsed = await self.save_and_wait(path, _source("same", second), "same", second)
            within_second += int(path.stat().st_mtime - saved < 1.0)
            _record(row, elapsed)
        row.note = (
            f"new code ran {len(row.times_ms)}/{RUNS}, saved within 1 s {within_second}/{RUNS}"
        )
        return row

    async def deletes(self) -> Row:
        row = Row("deleted file, watching")
        for i in range(RUNS):
            await _time_until(partial(self.replies, f"new-{i}", "ok"), time.perf_counter())
            started = time.perf_counter()
            (self.tools / f"new_{i}.py").unlink()
            _record(row, await _time_until(partial(self.replies, f"new-{i}", None), started))
        return row


async def _watching() -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        bench = _Bench(Path(tmp))
        bench.tools.mkdir()
        await bench.watcher.start()
        try:
            return [
                await bench.new_files(),
                await bench.edits(),
                await bench.same_size_resaves(),
                await bench.deletes(),
            ]
        finally:
            await bench.watcher.stop()


async def _static() -> Row:
    """Loaded once at start-up, as before hot reload: a new file is never seen."""
    with tempfile.TemporaryDirectory() as tmp:
        tools = Path(tmp) / "tools"
        tools.mkdir()
        registry = ToolRegistry()
        registry.replace_layer("user", load_tools_dir(tools).tools)
        started = time.perf_counter()
        (tools / "late.py").write_text(_source("late", "ok"), encoding="utf-8")
        elapsed = await _time_until(lambda: _replies(registry, Path(tmp), "late", "ok"), started)
    row = Row("new file, static registry (no watcher)")
    if elapsed is None:
        row.note = f"not visible after {TIMEOUT_S:.0f} s (1 run)"
    else:
        row.times_ms.append(elapsed)
    return row


def _restarts() -> Row:
    row = Row("restart (new process + app assembly)")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "JARVIS_HOME": tmp}
        for _ in range(RESTARTS):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", _RESTART_CODE], env=env, check=True)
            row.times_ms.append((time.perf_counter() - started) * 1000)
    return row


def main() -> None:
    rows = [*asyncio.run(_watching()), asyncio.run(_static()), _restarts()]
    cache = "off (sys.dont_write_bytecode)" if sys.dont_write_bytecode else "on"
    print(
        f"watchfiles {watchfiles.__version__}, {sys.platform}, Python "
        f"{sys.version.split()[0]}, bytecode cache {cache}, poll every {POLL_S * 1000:.0f} ms\n"
    )
    print("| measurement | p50 | p95 | max | count |")
    print("|---|---|---|---|---|")
    for row in rows:
        print(row.cells())


if __name__ == "__main__":
    main()
