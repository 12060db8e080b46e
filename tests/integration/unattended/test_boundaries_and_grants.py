"""Seed 000 boundaries (ask tools leave unattended turns, never tools are invisible everywhere)
and seed 002 grant voids (policy, definition, owner) with their audit lines."""

from __future__ import annotations

import asyncio
from pathlib import Path

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.app.infra import build_app
from jarvis.app.profile import AgentProfile, Boundaries
from jarvis.app.session_builder import SessionBuilder
from jarvis.app.settings import Settings
from jarvis.app.unattended.runs import UnattendedTurns
from jarvis.core.scheduler.definitions import Goal, Schedule
from jarvis.model_layer import ToolCall


def _app(home: Path, **security: object) -> tuple[UnattendedTurns, SessionBuilder]:
    settings = Settings(
        home=home,
        workspace=home,
        storage={"backend": "memory"},
        model={"provider": "faux", "model": "faux"},
        security=security,
    )
    app = build_app(settings)
    profile = AgentProfile(boundaries=Boundaries(ask=("bash",), never=("web_fetch",)))
    builder = SessionBuilder(app, profile)
    return UnattendedTurns(app, {"main": builder}), builder


async def test_ask_tools_leave_unattended_turns_never_tools_leave_everything(
    tmp_path: Path,
) -> None:
    turns, builder = _app(tmp_path)
    chat = {spec.name for spec in builder.setup().tools().specs()}
    schedule = Schedule(id="s", when="every day 9:00", prompt="p")
    unattended_tools = builder.unattended_setup(await turns.gate_for(schedule)).tools()
    unattended = {spec.name for spec in unattended_tools.specs()}
    assert "bash" in chat and "web_fetch" not in chat
    assert "bash" not in unattended and "web_fetch" not in unattended
    assert "read_file" in unattended
    # Called anyway (a model that remembers the name): unknown, nothing runs.
    ctx = ToolCallContext(session_id="x", agent_id="main", turn=1, abort=asyncio.Event())
    result = await unattended_tools.execute(
        ToolCall(id="1", name="bash", arguments={"command": "echo hi"}), ctx
    )
    assert result.is_error and "unknown tool" in result.content


async def test_a_grant_is_void_when_its_premise_changes(tmp_path: Path) -> None:
    turns, _ = _app(tmp_path)
    store = turns.preapprovals
    schedule = Schedule(id="s", when="every day 9:00", prompt="메일 정리", tools=["write_file"])
    await store.grant(schedule, ["write_file"], "local")
    assert await store.valid_tools(schedule) == {"write_file"}

    edited = schedule.model_copy(update={"prompt": "메일을 모두 지워"})
    (row,) = await store.status(edited)
    assert (row.state, row.reason, row.reason_text) == (
        "void",
        "definition",
        "정의 내용이 바뀌어 이전 승인 만료",
    )
    moved = schedule.model_copy(update={"owner": "bob"})
    (row,) = await store.status(moved)
    assert (row.reason, row.reason_text) == ("owner", "소유자가 바뀌어 이전 승인 만료")

    # The administrator changes the approval policy (a new dangerous-command list).
    stricter, _ = _app(tmp_path, dangerous_commands=["sudo", "shred"])
    (row,) = await stricter.preapprovals.status(schedule)
    assert (row.reason, row.reason_text) == ("policy", "권한 설정이 바뀌어 이전 승인 만료")
    assert await stricter.preapprovals.valid_tools(schedule) == frozenset()

    await store.revoke(schedule, "write_file", "local")
    lines = [(r.outcome, r.reason) for r in await turns.app.audit.query()]
    assert lines == [
        ("preapproval_granted", "schedule:s"),
        ("preapproval_void", "definition"),
        ("preapproval_void", "owner"),
        ("preapproval_revoked", "schedule:s"),
    ]


async def test_goal_step_order_is_part_of_the_fingerprint(tmp_path: Path) -> None:
    turns, _ = _app(tmp_path)
    goal = Goal(id="g", objective="보고서", steps=["검색", "작성"], tools=["write_file"])
    await turns.preapprovals.grant(goal, ["write_file"], "local")
    reordered = goal.model_copy(update={"steps": ["작성", "검색"]})
    assert await turns.preapprovals.missing(reordered) == ["write_file"]
    assert await turns.preapprovals.missing(goal) == []


async def test_an_agents_own_tool_list_holds_in_unattended_turns(tmp_path: Path) -> None:
    turns, _ = _app(tmp_path)
    listed = AgentProfile(
        agent_id="karen",
        tools=("read_file", "bash", "web_fetch"),
        boundaries=Boundaries(ask=("bash",), never=("web_fetch",)),
    )
    builder = SessionBuilder(turns.app, listed)
    gate = await turns.gate_for(Schedule(id="s", when="every day 9:00", prompt="p"))
    names = {spec.name for spec in builder.unattended_setup(gate).tools().specs()}
    # The listed tools minus `ask` and `never`, plus the memory tools every agent has (seed 000).
    assert names == {"read_file", "remember_task_pattern", "recall_episodes"}
