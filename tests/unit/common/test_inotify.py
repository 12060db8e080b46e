"""The inotify watch wakes for the wanted entries only: writes elsewhere in the root (databases,
logs) never reach the process; folders created later are watched; a burst is one batch."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from jarvis.common import inotify

pytestmark = pytest.mark.skipif(not inotify.available(), reason="inotify is Linux only")


async def test_only_wanted_entries_are_reported(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    busy = tmp_path / "engine.sqlite"
    busy.write_text("x")
    stop = asyncio.Event()
    watch = inotify.InotifyWatch(tmp_path, lambda name: name in {"tools", "config.yaml"})
    batches = watch.changes(stop)
    busy.write_text("written often")  # an unwanted file in the root: no event at all
    (tmp_path / "other").mkdir()
    (tmp_path / "tools" / "a.py").write_text("A = 1")
    assert await anext(batches) == {str(tmp_path / "tools" / "a.py")}
    (tmp_path / "tools" / "pkg").mkdir()  # a folder made later is watched from then on
    assert await anext(batches) == {str(tmp_path / "tools" / "pkg")}
    (tmp_path / "tools" / "pkg" / "b.py").write_text("B = 2")
    assert await anext(batches) == {str(tmp_path / "tools" / "pkg" / "b.py")}
    (tmp_path / "config.yaml").write_text("a: 1")  # a wanted root file, created then edited
    assert str(tmp_path / "config.yaml") in await anext(batches)
    (tmp_path / "config.yaml").write_text("a: 2")
    assert await anext(batches) == {str(tmp_path / "config.yaml")}
    stop.set()
    with pytest.raises(StopAsyncIteration):
        await anext(batches)
