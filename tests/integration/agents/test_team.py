"""Team agents (`team/<id>.yaml`): loading and hot reload with the last good version kept, and
isolation by code — ALWAYS rules, memory, own tools and boundaries — through real sessions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.infra import AppAssembly
from jarvis.core.procedures.files import ProcedureLibrary
from jarvis.core.procedures.model import Procedure
from jarvis.core.session import AgentSession
from jarvis.core.tools.base import ToolEnv
from jarvis.memory.service import MemoryScope
from tests.integration.agents._helpers import (
    Human,
    after_tool,
    bash,
    by_role,
    call,
    make_app,
    registry,
    use_model,
)

KAREN = {
    "name": "KAREN",
    "system_prompt": "role:karen — housing assistant",
    "tools": ["bash", "read_file"],
    "own_tools": ["web_fetch"],
    "boundaries": {"never": ["write_file"]},
}


def team_file(home: Path, agent_id: str, body: dict[str, Any] | str) -> Path:
    (home / "team").mkdir(exist_ok=True)
    path = home / "team" / f"{agent_id}.yaml"
    path.write_text(body if isinstance(body, str) else json.dumps(body), "utf-8")
    return path


def runs_echo(command: str = "echo hi") -> Any:
    return after_tool(bash(command), lambda result: f"ran {result.strip().splitlines()[-1]}")


async def open_session(agents: AgentRegistry, agent_id: str, human: Human) -> AgentSession:
    builder = agents.get(agent_id)
    assert builder is not None
    session = await builder.create()
    agents.app.channels.attach(session.id, human)
    return session


def app_with_karen(home: Path, karen: dict[str, Any] | None = None) -> tuple[AppAssembly, Any]:
    team_file(home, "karen", karen or KAREN)
    app = make_app(home)
    model = by_role({"karen": runs_echo()}, default=runs_echo())
    use_model(app, model)
    return app, model


async def test_a_team_file_makes_a_top_level_agent_beside_main(tmp_path: Path) -> None:
    app, _ = app_with_karen(tmp_path, {**KAREN, "model": {"model": "karen-model"}})
    agents = registry(app)
    assert agents.ids() == ["main", "karen"]
    karen = agents.get("karen")
    assert karen is not None and karen.profile.name == "KAREN"
    assert karen.profile.model is not None and karen.profile.model.model == "karen-model"
    assert karen.profile.model.provider == "faux"  # the rest comes from the app's settings
    session = await karen.create()
    assert session.info.agent_id == "karen" and session.setup.agent_name == "KAREN"
    assert (await agents.open(session.id)) is session


async def test_always_in_karen_does_not_spread_to_jarvis(tmp_path: Path) -> None:
    app, _ = app_with_karen(tmp_path)
    agents = registry(app)
    human = Human(app, ["always", "allow"])
    karen = await open_session(agents, "karen", human)
    assert (await karen.prompt("run it")).answer == "ran hi"
    assert human.requests[0].pattern == "echo hi"
    assert "echo hi" in (tmp_path / "approvals" / "karen.yaml").read_text()
    again = await open_session(agents, "karen", human)
    outcome = await again.prompt("run it again")
    assert outcome.result is not None
    decision = outcome.result.tool_runs[0].result.details["decision"]
    assert decision["reason"] == "rule:approvals/karen.yaml"  # KAREN does not ask again
    jarvis = await open_session(agents, "main", human)
    await jarvis.prompt("run it")
    assert len(human.requests) == 2  # JARVIS asks: the rule is KAREN's
    assert human.requests[1].agent_id == "main"
    assert not (tmp_path / "approvals" / "main.yaml").exists()


async def test_the_shared_approvals_file_applies_to_every_agent(tmp_path: Path) -> None:
    (tmp_path / "approvals.yaml").write_text("rules:\n  - {tool: bash, pattern: echo hi}\n")
    app, _ = app_with_karen(tmp_path)
    agents = registry(app)
    human = Human(app)
    for agent_id in ("main", "karen"):
        session = await open_session(agents, agent_id, human)
        assert (await session.prompt("run it")).answer == "ran hi"
    assert human.requests == []


async def test_memory_is_each_agents_own_unless_it_shares_mains(tmp_path: Path) -> None:
    app, model = app_with_karen(tmp_path)
    (tmp_path / "approvals.yaml").write_text("rules:\n  - {tool: bash, pattern: echo hi}\n")
    agents = registry(app)
    human = Human(app)
    karen = await open_session(agents, "karen", human)
    await karen.prompt("zebra password hint")
    assert [e.utterance for e in await app.memory.episodes("karen", "local")] == [
        "zebra password hint"
    ]
    assert await app.memory.episodes("main", "local") == []
    jarvis = await open_session(agents, "main", human)
    await jarvis.prompt("what about the zebra")
    seen = next(c for c in reversed(model.calls) if "role:karen" not in c.system_prompt)
    assert all("zebra password" not in m.content for m in seen.messages if m.role == "user")
    # A team agent with `memory.scope: main` reads and writes JARVIS's memory instead.
    team_file(tmp_path, "karen", {**KAREN, "memory": {"scope": "main"}})
    app.extensions.initial_load()
    shared = await open_session(agents, "karen", human)
    await shared.prompt("what about the zebra")
    recalled = model.calls[-2]  # the turn's first call, before the bash result
    assert any("[장기 기억]" in m.content for m in recalled.messages if m.role == "user")


async def test_own_tools_and_never_are_enforced_by_code(tmp_path: Path) -> None:
    app, _ = app_with_karen(tmp_path)
    agents = registry(app)
    karen, jarvis = agents.get("karen"), agents.get("main")
    assert karen is not None and jarvis is not None
    karen_tools = {spec.name for spec in karen.setup().tools().specs()}
    main_tools = {spec.name for spec in jarvis.setup().tools().specs()}
    memory_tools = {"remember_task_pattern", "recall_episodes"}
    assert {"bash", "read_file", "web_fetch", "ask_agent"} | memory_tools == karen_tools
    assert "web_fetch" not in main_tools and "write_file" in main_tools
    assert "ask_agent" in main_tools


def jarvis_asks_karen() -> Any:
    """JARVIS asks KAREN, who runs `echo from-karen` and says what ran."""
    return by_role(
        {"karen": runs_echo("echo from-karen")},
        default=after_tool(
            call("ask_agent", agent="karen", question="check it"),
            lambda result: f"KAREN says: {result}",
        ),
    )


async def test_ask_agent_runs_karen_with_her_rules_and_asks_in_the_askers_window(
    tmp_path: Path,
) -> None:
    team_file(tmp_path, "karen", KAREN)
    app = make_app(tmp_path)
    model = jarvis_asks_karen()
    use_model(app, model)
    agents = registry(app)
    human = Human(app, ["always", "allow"])
    jarvis = await open_session(agents, "main", human)
    events: list[Any] = []
    jarvis.subscribe(lambda event: events.append(event.model_dump(mode="json")))
    outcome = await jarvis.prompt("ask karen")
    assert outcome.answer == "KAREN says: ran from-karen"
    (request,) = human.requests
    assert (request.session_id, request.agent_id) == (jarvis.id, "karen")
    assert request.agent_path == ["main", "karen"]
    # ALWAYS went to KAREN's file: the rule is hers, not JARVIS's.
    assert "echo from-karen" in (tmp_path / "approvals" / "karen.yaml").read_text()
    nested = {tuple(e["agent_path"]) for e in events if e["type"] == "agent_event"}
    assert nested == {("main", "karen")}
    # KAREN answered from her own memory, not JARVIS's.
    await app.memory.remember(MemoryScope("karen", "local", "x", 1), "fact", "karen-only fact", 1)
    await jarvis.prompt("ask karen again")
    # Her rule is hers: asked by JARVIS, who holds none, the person is asked again (issue 23).
    assert len(human.requests) == 2
    (asked,) = [c for c in model.calls if "role:karen" in c.system_prompt][-2:-1]
    assert "karen-only fact" in asked.messages[0].content  # type: ignore[union-attr]
    mains = [c for c in model.calls if "role:karen" not in c.system_prompt]
    assert all("karen-only fact" not in m.content for c in mains for m in c.messages)


async def test_ask_agent_is_offered_only_with_two_agents(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    agents = registry(app)
    assert app.tools.get("ask_agent") is None
    team_file(tmp_path, "karen", KAREN)
    app.extensions.initial_load()
    assert app.tools.get("ask_agent") is not None and agents.ids() == ["main", "karen"]


async def test_a_broken_team_file_keeps_the_last_good_version_and_is_reported(
    tmp_path: Path,
) -> None:
    path = team_file(tmp_path, "karen", KAREN)
    app = make_app(tmp_path)
    agents = registry(app)
    path.write_text("name: KAREN2\nboundaries: {nevr: [bash]}\n", "utf-8")
    team_file(tmp_path, "main", {"name": "not allowed"})
    app.extensions.initial_load()
    karen = agents.get("karen")
    assert karen is not None and karen.profile.name == "KAREN"  # the last good version
    broken = {row.name: row.detail for row in app.extensions.status() if not row.ok}
    assert (
        "nevr" in broken["karen.yaml"] and "keeping the last good version" in broken["karen.yaml"]
    )
    assert "not a usable agent id" in broken["main.yaml"]


async def test_team_and_agent_files_hot_reload(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    agents = registry(app)
    changed = asyncio.Event()
    app.definitions.listeners.append(changed.set)
    await app.extensions.start()
    try:
        changed.clear()
        team_file(tmp_path, "karen", KAREN)
        while agents.get("karen") is None:
            await asyncio.wait_for(changed.wait(), 10)
            changed.clear()
        team_file(tmp_path, "karen", {**KAREN, "name": "KAREN v2"})
        while agents.get("karen").profile.name != "KAREN v2":  # type: ignore[union-attr]
            await asyncio.wait_for(changed.wait(), 10)
            changed.clear()
        (tmp_path / "agents").mkdir()
        (tmp_path / "agents" / "p.yaml").write_text("name: planner\n", "utf-8")
        while app.tools.get("agent_planner") is None:
            await asyncio.wait_for(changed.wait(), 10)
            changed.clear()
        assert app.tools.get("orchestrate") is not None
    finally:
        await app.extensions.stop()


async def test_an_agent_with_a_tool_list_still_learns_task_patterns(tmp_path: Path) -> None:
    """Seed 000: remember_task_pattern and recall_episodes are tools every agent uses; a
    `tools:` list does not drop them, so KAREN's [작업 패턴] fills from her own turn."""
    team_file(tmp_path, "karen", KAREN)
    app = make_app(tmp_path)
    teach = call("remember_task_pattern", pattern="tables always in markdown")
    use_model(app, by_role({"karen": after_tool(teach, lambda _: "noted")}))
    agents = registry(app)
    session = await open_session(agents, "karen", Human(app, []))
    await session.prompt("from now on, tables always in markdown")
    karen = MemoryScope("karen", "local", "s1", 1)
    assert "tables always in markdown" in await app.memory.observe(karen, "table")


async def test_never_still_hides_the_memory_tools(tmp_path: Path) -> None:
    never = {"never": ["write_file", "remember_task_pattern", "recall_episodes"]}
    app, _ = app_with_karen(tmp_path, {**KAREN, "boundaries": never})
    karen = registry(app).get("karen")
    assert karen is not None
    names = {spec.name for spec in karen.setup().tools().specs()}
    assert not names & {"remember_task_pattern", "recall_episodes"}


async def test_task_patterns_are_each_agents_own(tmp_path: Path) -> None:
    app, _ = app_with_karen(tmp_path)
    registry(app)
    karen = MemoryScope("karen", "local", "s1", 1)
    await app.memory.remember(karen, "task_pattern", "tables always in markdown", ts_ms=1)
    assert "[작업 패턴]\n- tables always in markdown" in await app.memory.observe(karen, "table")
    jarvis = MemoryScope("main", "local", "s2", 1)
    assert "markdown" not in await app.memory.observe(jarvis, "table")


async def test_ask_agent_refuses_itself_a_loop_and_unknown_agents(tmp_path: Path) -> None:
    app, _ = app_with_karen(tmp_path)
    registry(app)
    tool = app.tools.get("ask_agent")
    assert tool is not None

    async def ask(agent: str, path: tuple[str, ...] = ()) -> str:
        ctx = ToolCallContext(
            "s1", path[-1] if path else "main", 1, asyncio.Event(), agent_path=path
        )
        env = ToolEnv(workspace=tmp_path, call=ctx)
        result = await tool.execute("c1", {"agent": agent, "question": "q"}, env)
        assert result.is_error
        return result.content

    assert "자기 자신" in await ask("main")
    assert "자기 자신" in await ask("main", ("main", "karen"))  # KAREN asking back: a loop
    assert "nobody" in await ask("nobody")


async def test_a_procedure_karen_learned_is_a_tool_for_karen_only(tmp_path: Path) -> None:
    app, _ = app_with_karen(tmp_path)
    agents = registry(app)
    ProcedureLibrary(tmp_path / "procedures").save(
        Procedure(
            name="loan-check",
            description="대출 한도를 본다",
            status="approved",
            source="edm:karen:bash",
            agent="karen",
            kind="bash",
            generation=1,
            tools=["bash"],
            body="1. bash 로 계산한다",
        )
    )
    karen, jarvis = agents.get("karen"), agents.get("main")
    assert karen is not None and jarvis is not None
    assert "procedure_loan_check" in {s.name for s in karen.setup().tools().specs()}
    assert "procedure_loan_check" not in {s.name for s in jarvis.setup().tools().specs()}
