"""The real watcher on real folders. Every wait polls a condition with no wall-clock budget
(a busy machine only makes it slower); pytest's own timeout catches a reload that never comes."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.app.extension_watcher import ExtensionWatcher
from jarvis.core.extensions import SkillRegistry
from jarvis.core.plugins import PluginHost
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.registry import ToolRegistry


def _tool_source(reply: str, name: str = "hello") -> str:
    return (
        f"TOOL_NAME = {name!r}\n"
        f"async def execute(tool_call_id, params, **kw):\n    return {reply!r}\n"
    )


def _atomic_write(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.tmp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


async def _until(check: Callable[[], bool], what: str) -> None:
    """Poll until `check()` holds; `what` names the condition for a reader of a hung test."""
    while not check():
        await asyncio.sleep(0.01)


class Home:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.registry = ToolRegistry()
        self.plugins = PluginHost()
        self.skills = SkillRegistry()
        self.watcher = ExtensionWatcher(root, self.registry, self.plugins, self.skills)

    async def reply_of(self, name: str) -> str | None:
        tool = self.registry.get(name)
        if tool is None:
            return None
        ctx = ToolCallContext(session_id="s", agent_id="a", turn=1, abort=asyncio.Event())
        return (await tool.execute("c", {}, ToolEnv(self.root, ctx))).content

    async def until_reply(self, name: str, expected: str | None) -> None:
        while await self.reply_of(name) != expected:
            await asyncio.sleep(0.01)


@pytest.fixture
async def home(tmp_path: Path) -> AsyncIterator[Home]:
    (tmp_path / "tools").mkdir()
    running = Home(tmp_path)
    await running.watcher.start()
    yield running
    await running.watcher.stop()


async def test_a_new_tool_file_becomes_visible(home: Home) -> None:
    (home.root / "tools" / "hello.py").write_text(_tool_source("hi"), encoding="utf-8")
    await home.until_reply("hello", "hi")


async def test_edit_atomic_replace_and_same_size_resave_run_the_new_code(home: Home) -> None:
    path = home.root / "tools" / "hello.py"
    path.write_text(_tool_source("v1"), encoding="utf-8")
    await home.until_reply("hello", "v1")
    _atomic_write(path, _tool_source("version two"))
    await home.until_reply("hello", "version two")
    _atomic_write(path, _tool_source("version 003"))  # same size, same second
    await home.until_reply("hello", "version 003")


async def test_deleting_a_file_unregisters_its_tool_skill_and_plugin(home: Home) -> None:
    tool = home.root / "tools" / "hello.py"
    tool.write_text(_tool_source("hi"), encoding="utf-8")
    (home.root / "skills").mkdir()
    skill = home.root / "skills" / "s.md"
    skill.write_text("---\nname: s\n---\nbody {{args}}\n", encoding="utf-8")
    (home.root / "plugins").mkdir()
    plugin = home.root / "plugins" / "p.py"
    plugin.write_text("class P:\n    name = 'p'\n    version = '1'\n", encoding="utf-8")
    await _until(lambda: home.registry.get("hello") is not None, "tool loaded")
    await _until(lambda: home.skills.expand("/s x") == "body x", "skill loaded")
    await _until(lambda: len(home.plugins.plugins) == 1, "plugin loaded")
    for path in (tool, skill, plugin):
        path.unlink()
    await _until(lambda: home.registry.get("hello") is None, "tool unregistered")
    await _until(lambda: home.skills.get("s") is None, "skill unregistered")
    await _until(lambda: home.plugins.plugins == [], "plugin unregistered")


async def test_a_folder_created_after_start_is_watched(tmp_path: Path) -> None:
    running = Home(tmp_path)  # no tools/ yet
    await running.watcher.start()
    try:
        (tmp_path / "tools").mkdir()
        (tmp_path / "tools" / "late.py").write_text(_tool_source("late", "late"), "utf-8")
        await running.until_reply("late", "late")
    finally:
        await running.watcher.stop()


async def test_a_moved_folder_is_rescanned(home: Home) -> None:
    (home.root / "tools" / "hello.py").write_text(_tool_source("old"), encoding="utf-8")
    await home.until_reply("hello", "old")
    staging = home.root / "staging"
    staging.mkdir()
    (staging / "hello.py").write_text(_tool_source("new"), encoding="utf-8")
    (staging / "other.py").write_text(_tool_source("other", "other"), encoding="utf-8")
    os.rename(home.root / "tools", home.root / "old-tools")
    await home.until_reply("hello", None)
    os.rename(staging, home.root / "tools")
    await home.until_reply("hello", "new")
    await home.until_reply("other", "other")
    # The moved-in folder is watched too.
    (home.root / "tools" / "other.py").write_text(_tool_source("edited", "other"), "utf-8")
    await home.until_reply("other", "edited")


async def test_broken_file_is_reported_and_others_keep_loading(home: Home) -> None:
    (home.root / "tools" / "broken.py").write_text("def execute(:\n", encoding="utf-8")
    (home.root / "tools" / "hello.py").write_text(_tool_source("fine"), encoding="utf-8")
    await home.until_reply("hello", "fine")
    await _until(lambda: any(not row.ok for row in home.watcher.status()), "error reported")
    [error] = [row for row in home.watcher.status() if not row.ok]
    assert (error.kind, error.file.name) == ("tool", "broken.py")
    assert "syntax error at line 1" in error.detail
    [ok] = [row for row in home.watcher.status() if row.ok]
    assert (ok.kind, ok.name) == ("tool", "hello")


async def test_a_failing_folder_does_not_stop_the_others(home: Home) -> None:
    (home.root / "skills").mkdir()
    (home.root / "skills" / "s.md").write_text("---\nname: [broken\n---\n", encoding="utf-8")
    (home.root / "plugins").mkdir()
    (home.root / "plugins" / "p.py").write_text(
        "class P:\n    name = 'p'\n    version = '1'\n", encoding="utf-8"
    )
    (home.root / "tools" / "hello.py").write_text(_tool_source("fine"), encoding="utf-8")
    await home.until_reply("hello", "fine")
    await _until(lambda: len(home.plugins.plugins) == 1, "plugin loaded")
    await _until(
        lambda: (
            [(r.kind, r.ok) for r in home.watcher.status() if r.kind == "skill"]
            == [("skill", False)]
        ),
        "skill error reported",
    )


def test_initial_load_reads_all_three_folders(tmp_path: Path) -> None:
    for folder in ("tools", "skills", "plugins"):
        (tmp_path / folder).mkdir()
    (tmp_path / "tools" / "hello.py").write_text(_tool_source("hi"), encoding="utf-8")
    (tmp_path / "skills" / "s.yaml").write_text("name: s\nprompt: '{{args}}!'\n", "utf-8")
    (tmp_path / "plugins" / "p.py").write_text(
        "class P:\n    name = 'p'\n    version = '1'\n", encoding="utf-8"
    )
    home = Home(tmp_path)
    home.watcher.initial_load()
    assert home.registry.get("hello") is not None
    assert home.skills.expand("/s go") == "go!"
    assert [row.kind for row in home.watcher.status()] == ["tool", "skill", "plugin"]


SLOW_IMPORT = """
import pathlib, time
pathlib.Path({started!r}).touch()
for _ in range(3000):  # gives up after ~30 s so a blocked loop fails the test, not hangs it
    if pathlib.Path({release!r}).exists():
        break
    time.sleep(0.01)
TOOL_NAME = "slow"
async def execute(tool_call_id, params, **kw):
    return "done"
"""


async def test_a_tool_whose_import_blocks_does_not_block_the_event_loop(home: Home) -> None:
    started, release = home.root / "started", home.root / "release"
    source = SLOW_IMPORT.format(started=str(started), release=str(release))
    (home.root / "tools" / "slow.py").write_text(source, encoding="utf-8")
    await _until(started.exists, "the import is under way")
    # This coroutine runs while the import waits: had the import run on the loop, we would
    # only get here after it gave up and registered the tool.
    assert home.registry.get("slow") is None and not release.exists()
    release.touch()
    await home.until_reply("slow", "done")
