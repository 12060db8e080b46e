"""`jarvis memory` and `jarvis procedures` as a person runs them, on a real data dir."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from jarvis.memory import MemoryScope, MemoryService, MemorySettings
from jarvis.memory.sqlite_store import SqliteItemStore
from tests.integration.procedures.test_live import save_draft
from tests.support.hang import HANG_GUARD_SEC

JARVIS = str(Path(sys.executable).with_name("jarvis"))


def jarvis(home: Path, *args: str) -> str:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    environment.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home))
    done = subprocess.run(
        [JARVIS, *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=HANG_GUARD_SEC,
        check=True,
    )
    return done.stdout


async def test_memory_and_procedures_from_a_shell(tmp_path: Path) -> None:
    store = SqliteItemStore(tmp_path / "memory.db")
    memory = MemoryService(MemorySettings(), store)
    fact = await memory.remember(MemoryScope("main", "local", "s", 1), "fact", "서울에 산다", 1)
    await memory.remember(MemoryScope("karen", "local", "s", 1), "fact", "karen only", 1)
    await store.aclose()
    save_draft(tmp_path)
    # Few processes: each start-up is seconds on a busy machine.
    listing = jarvis(tmp_path, "memory", "list")
    assert f"{fact.id[:8]}" in listing and "서울에 산다" in listing and "karen" not in listing
    assert "잊었습니다" in jarvis(tmp_path, "memory", "forget", fact.id[:8])
    assert "승인했습니다" in jarvis(tmp_path, "procedures", "approve", "list-and-echo")
    assert "list-and-echo  [승인]" in jarvis(tmp_path, "procedures")
    store = SqliteItemStore(tmp_path / "memory.db")
    left = await MemoryService(MemorySettings(), store).items("main", "local")
    await store.aclose()
    assert [item.kind for item in left] == ["procedure"]  # the fact is gone; [절차 기억] added
