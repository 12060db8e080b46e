"""A learner on real files and a real memory store, with the scripted model."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from jarvis.common.clock import Clock
from jarvis.core.procedures.config import ProcedureSettings
from jarvis.core.procedures.distill import provider_model
from jarvis.core.procedures.files import ProcedureLibrary
from jarvis.core.procedures.learner import ProcedureLearner
from jarvis.memory import MemoryService, MemorySettings, make_episode
from jarvis.memory.sqlite_store import SqliteItemStore
from jarvis.model_layer import FauxProvider


class StepClock(Clock):
    def __init__(self) -> None:
        self.now = 1_000_000

    def now_ms(self) -> int:
        self.now += 1000
        return self.now


@dataclass
class Rig:
    learner: ProcedureLearner
    memory: MemoryService
    model: FauxProvider
    library: ProcedureLibrary
    turn: int = 0

    async def turn_of(
        self, tool: str | None, outcome: str = "success", agent: str = "main", **meta: Any
    ) -> None:
        self.turn += 1
        episode = make_episode(
            agent_id=agent, user_id="u", session_id="s1", turn=self.turn, ts_ms=self.turn * 1000,
            utterance=meta.pop("utterance", f"현재 폴더 목록을 보여줘 ({self.turn})"),
            answer="done", successful_calls=[(tool, {"path": "."})] if tool else [],
            outcome=outcome, overflow=meta.pop("overflow", False),
        )  # fmt: skip
        episode.metadata.update(meta)
        await self.memory.record_episode(episode)


def distilled(name: str = "list-files", body: str = "1. list_dir 로 목록을 본다", **kw: Any) -> str:
    return json.dumps({"name": name, "description": "목록 보기", "body": body, **kw})


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    store = SqliteItemStore(tmp_path / "memory.db")
    memory = MemoryService(MemorySettings(), store)
    model = FauxProvider()
    library = ProcedureLibrary(tmp_path / "procedures")
    learner = ProcedureLearner(
        library, memory, provider_model(model, "faux"), ProcedureSettings(), StepClock()
    )
    yield Rig(learner, memory, model, library)
    await store.aclose()
