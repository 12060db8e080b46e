"""What a turn reuses from the last one is dropped when what it depends on changes: a tool
registered (a user tool saved on disk) or a procedure approved is in the next turn's specs, a
memory another connection wrote is recalled on the next turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from jarvis.agent_layer.tools import ToolResult
from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.infra import build_app
from jarvis.app.settings import Settings
from jarvis.core.procedures.model import Procedure
from jarvis.core.tools.base import Tool, ToolEnv, ToolSource
from jarvis.memory import MemoryService, MemorySettings
from jarvis.memory.service import MemoryScope
from jarvis.memory.sqlite_store import SqliteItemStore
from jarvis.model_layer import FauxProvider, FauxResponse


class _Weather(Tool):
    name: ClassVar[str] = "weather_now"
    description: ClassVar[str] = "The weather where you are."

    @property
    def source(self) -> ToolSource:
        return ToolSource("user", "weather_now.py")

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        return ToolResult(content="sunny")


async def test_a_new_tool_or_procedure_is_in_the_next_turns_specs(tmp_path: Path) -> None:
    instant = {"provider": "instant", "model": "instant"}
    app = build_app(Settings(home=tmp_path, workspace=tmp_path, language="en", model=instant))
    model = FauxProvider(script=lambda _ctx: FauxResponse(text="ok"))
    app.providers.register("instant", lambda _settings: model)
    session = await AgentRegistry(app).get("main").create()  # type: ignore[union-attr]
    try:
        await session.prompt("hello")
        names = {spec.name for spec in session.setup.tools().specs()}
        assert "weather_now" not in names
        assert session.setup.tools() is session.setup.tools()  # nothing changed: reused

        app.tools.register(_Weather())  # what the tools folder's watcher does on a save
        await session.prompt("and now?")
        assert "weather_now" in {tool.name for tool in model.calls[-1].tools}

        assert app.learning is not None
        learned = Procedure(name="weekly-report", description="Write it", status="approved")
        app.learning.library.save(learned)
        await session.prompt("once more")
        assert learned.tool_name in {tool.name for tool in model.calls[-1].tools}
        app.learning.library.delete(learned.name)
        await session.prompt("and again")
        assert learned.tool_name not in {tool.name for tool in model.calls[-1].tools}
    finally:
        await app.aclose()


async def test_a_memory_written_elsewhere_is_recalled_next_turn(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    mine, other = SqliteItemStore(path), SqliteItemStore(path)
    memory = MemoryService(MemorySettings(), mine)
    elsewhere = MemoryService(MemorySettings(), other)
    scope = MemoryScope("main", "u", "s1", 1)
    try:
        assert "Busan" not in await memory.observe(scope, "where do I live")
        await elsewhere.remember(MemoryScope("main", "u", "s2", 1), "fact", "I live in Busan", 1)
        assert "Busan" in await memory.observe(scope, "where do I live")
        await elsewhere.remember(
            MemoryScope("main", "u", "s2", 2), "semantic", "the cat is called Nabi", 2
        )
        assert "Nabi" in await memory.observe(scope, "what is the cat called")
    finally:
        await mine.aclose()
        await other.aclose()
