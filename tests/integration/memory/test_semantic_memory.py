"""Semantic memory on every store (memory, SQLite, PostgreSQL) and through the real engine:
stated facts are written once, recalled in later sessions, corrected and forgotten."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from jarvis.app.session_builder import SessionBuilder
from jarvis.core.memory_tools.semantic import statements
from jarvis.core.memory_tools.semantic_job import write_statements
from jarvis.memory import MemoryScope, make_episode
from jarvis.ui.cli.main import app as cli
from tests.integration.thinking.test_wired import make_app, scripted


def scope(session: str, turn: int) -> MemoryScope:
    return MemoryScope("main", "u", session, turn)


async def semantic_texts(service: Any) -> list[str]:
    return [item.text for item in await service.items("main", "u", ("semantic",))]


async def test_written_once_recalled_elsewhere_corrected_and_forgotten(services: Any) -> None:
    a, b = services  # two processes on one storage
    said = statements("I live in Busan. If I lived in Seoul I'd be happier. I love jazz.")
    await a.record_episode(
        make_episode(
            agent_id="main", user_id="u", session_id="s1", turn=1, ts_ms=1000,
            utterance="I live in Busan. I love jazz.", answer="ok", successful_calls=[],
            outcome="success", overflow=False,
        )
    )  # fmt: skip
    assert await write_statements(a, scope("s1", 1), said, 1000) == said
    assert await write_statements(b, scope("s1", 2), ["i live in busan"], 2000) == []  # deduped
    assert await semantic_texts(b) == ["I love jazz.", "I live in Busan."]

    later = await b.recall(scope("s2", 1), "where do I live?")
    assert [item.text for item, _ in later.recalled] == ["I live in Busan."]  # not its episode
    assert "- I live in Busan." in later.block and later.block.count("Busan") == 1

    await write_statements(b, scope("s2", 1), ["Actually, I live in Seoul now."], 3000)
    assert await semantic_texts(a) == ["Actually, I live in Seoul now.", "I love jazz."]
    after = await a.recall(scope("s3", 1), "where do I live?")
    assert "Seoul" in after.block and "Busan" not in after.block  # nor the old turn's episode

    seoul = next(i for i in await a.items("main", "u", ("semantic",)) if "Seoul" in i.text)
    assert await b.forget("main", "u", seoul.id)
    gone = await a.recall(scope("s4", 1), "where do I live?")
    assert "Seoul" not in gone.block


async def test_the_turn_that_stated_it_does_not_recall_it(services: Any) -> None:
    a, _ = services
    await write_statements(a, scope("s1", 1), ["My car is a blue Hyundai."], 1000)
    same = await a.recall(scope("s1", 2), "my car")  # the model sees turn 1 verbatim
    assert same.recalled == []
    other = await a.recall(scope("s2", 1), "my car")
    assert [item.kind for item, _ in other.recalled] == ["semantic"]


def jarvis(home: Path, *args: str) -> str:
    """The shell command in-process (in a thread: it runs its own event loop)."""
    environment: dict[str, str | None] = {k: None for k in os.environ if k.startswith("JARVIS_")}
    environment["JARVIS_HOME"] = str(home)
    result = CliRunner().invoke(cli, list(args), env=environment)
    assert result.exit_code == 0, result.output
    return result.output


async def test_the_engine_writes_stated_facts_for_later_sessions(tmp_path: Path) -> None:
    app = make_app(tmp_path, user_model={"enabled": False})
    model = scripted(app, lambda ctx: "Noted.")
    one = await SessionBuilder(app).create()
    await one.prompt("내 차는 파란 아반떼야. 만약 내가 부자라면 테슬라를 살 거야. 메일 정리해줘.")
    await one.settle()
    kept = await app.memory.items("main", "local", ("semantic",))
    assert [i.text for i in kept] == ["내 차는 파란 아반떼야."]  # no hypothetical, no request
    listed = await asyncio.to_thread(jarvis, tmp_path, "memory", "list")
    assert f"{kept[0].id[:8]}" in listed and "semantic" in listed

    two = await SessionBuilder(app).create()
    await two.prompt("내 차는 무슨 차였지?")
    await two.settle()
    seen = model.calls[-1].messages[-1].content
    assert "- 내 차는 파란 아반떼야." in seen

    await two.prompt("아니, 내 차는 아반떼가 아니라 소나타야.")
    await two.settle()
    three = await SessionBuilder(app).create()
    await three.prompt("내 차는 무슨 차였지?")
    await three.settle()
    seen = model.calls[-1].messages[-1].content
    assert "소나타" in seen and "파란 아반떼야" not in seen
    kept = await app.memory.items("main", "local", ("semantic",))
    assert [i.text for i in kept] == ["아니, 내 차는 아반떼가 아니라 소나타야."]
    shown = await asyncio.to_thread(jarvis, tmp_path, "memory", "show", kept[0].id[:8])
    assert "소나타" in shown and "semantic" in shown
    await asyncio.to_thread(jarvis, tmp_path, "memory", "forget", kept[0].id[:8])
    assert await app.memory.items("main", "local", ("semantic",)) == []
