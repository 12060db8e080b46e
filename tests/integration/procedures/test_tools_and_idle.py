"""Procedure tools on a real registry and executor, and the idle tick after a session's turns."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.app.settings import load_settings
from jarvis.core.procedures.idle import IdleLearning
from jarvis.core.procedures.model import PlanStep, Procedure
from jarvis.core.procedures.tools import FOLLOW_EVERY_STEP, ProcedureTools
from jarvis.core.tools.builtins import builtin_tools
from jarvis.core.tools.executor import GatedTools
from jarvis.core.tools.registry import ToolRegistry
from jarvis.model_layer.messages import ToolCall
from tests.integration.procedures.conftest import Rig, distilled


def context(agent: str) -> ToolCallContext:
    return ToolCallContext(session_id="s", agent_id=agent, turn=1, abort=asyncio.Event())


def tools_for(
    rig: Rig, agent: str, workspace: Path, visible: set[str] | None = None
) -> ProcedureTools:
    registry = ToolRegistry()
    registry.register_all(builtin_tools())
    return ProcedureTools(GatedTools(registry, workspace, visible=visible), rig.library, agent)


async def test_approved_procedures_appear_for_their_agent_only_and_without_restart(
    rig: Rig, tmp_path: Path
) -> None:
    (tmp_path / "a.txt").write_text("x")
    main_tools = tools_for(rig, "main", tmp_path)
    karen_tools = tools_for(rig, "karen", tmp_path)
    procedure = Procedure(
        name="look", description="look around", status="draft", source="edm:main:list_dir",
        agent="main", kind="list_dir", tools=["list_dir"], inputs=["dir"],
        plan=[PlanStep(tool="list_dir", args={"path": "{{dir}}"})], body="1. list_dir {{args}}",
    )  # fmt: skip
    rig.library.save(procedure)
    assert "procedure_look" not in [s.name for s in main_tools.specs()]  # a draft is no tool
    rig.library.save(procedure.model_copy(update={"status": "approved"}))
    assert "procedure_look" in [s.name for s in main_tools.specs()]
    assert "procedure_look" not in [s.name for s in karen_tools.specs()]
    ran = await main_tools.execute(
        ToolCall(id="c", name="procedure_look", arguments={"dir": "."}), context("main")
    )
    assert not ran.is_error and "a.txt" in ran.content
    recipe = await main_tools.execute(
        ToolCall(id="c", name="procedure_look", arguments={}), context("main")
    )
    assert FOLLOW_EVERY_STEP in recipe.content  # an input is missing: the recipe instead
    hidden = await karen_tools.execute(
        ToolCall(id="c", name="procedure_look", arguments={"dir": "."}), context("karen")
    )
    assert hidden.is_error and "unknown tool" in hidden.content


async def test_steps_run_only_within_the_agents_tool_list(rig: Rig, tmp_path: Path) -> None:
    rig.library.save(
        Procedure(
            name="look", status="approved", source="edm:main:list_dir", agent="main",
            kind="list_dir", tools=["list_dir"], inputs=["dir"],
            plan=[PlanStep(tool="list_dir", args={"path": "{{dir}}"})],
        )
    )  # fmt: skip
    narrow = tools_for(rig, "main", tmp_path, visible={"read_file"})
    result = await narrow.execute(
        ToolCall(id="c", name="procedure_look", arguments={"dir": "."}), context("main")
    )
    assert result.is_error and "stopped at step 1" in result.content


async def test_the_idle_tick_learns_after_the_quiet_period(rig: Rig) -> None:
    idle = IdleLearning(rig.learner, idle_sec=0)
    for _ in range(3):
        await rig.turn_of("list_dir")
    rig.model.add(distilled())
    idle.poke("main", "u")
    idle.poke("main", "u")  # a second turn restarts the quiet period: one tick, not two
    await idle.drain()
    assert idle.ticks == 1 and [p.name for p in rig.library.all()] == ["list-files"]


async def test_reflection_is_turned_off_by_its_setting(
    rig: Rig, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("JARVIS_PROCEDURES__REFLECT", "false")
    monkeypatch.setenv("JARVIS_HOME", str(tmp_path))
    rig.learner.settings = load_settings().procedures
    await rig.turn_of("bash", outcome="failure")
    await rig.learner.tick("main", "u")
    assert rig.model.call_count == 0
    items = await rig.memory.episode_items("main", "u")
    assert "reflection" not in items[0].episode.metadata  # type: ignore[union-attr]
