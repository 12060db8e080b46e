"""Each orchestration pattern, a pipeline, the budget, abort propagation, depth and the gate, with
the real assembly (tools, gate, rule files, approvals) and the scripted model."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.app.infra import AppAssembly
from jarvis.core.tools.executor import GatedTools
from jarvis.memory.service import MemoryScope
from jarvis.model_layer.config import StreamOptions
from jarvis.model_layer.events import StreamEvent
from jarvis.model_layer.messages import LLMContext, ToolCall
from jarvis.model_layer.providers.faux import FauxProvider
from tests.integration.agents._helpers import (
    Human,
    after_tool,
    bash,
    by_role,
    call,
    context,
    make_app,
    registry,
    subagent_yaml,
    use_model,
)
from tests.support.hang import HANG_GUARD_SEC


def declare(home: Path, *agents: dict[str, Any], file: str = "team.yaml") -> None:
    (home / "agents").mkdir(exist_ok=True)
    (home / "agents" / file).write_text(json.dumps(list(agents)), "utf-8")


async def run(app: AppAssembly, ctx: ToolCallContext, tool: str, **args: Any) -> ToolResult:
    """The call as a session makes it: through the gate."""
    tools = GatedTools(app.tools, app.settings.workspace_dir, app.gate)
    return await tools.execute(ToolCall(id="c1", name=tool, arguments=args), ctx)


def paths(events: list[dict[str, Any]], inner: str) -> list[list[str]]:
    return [
        e["agent_path"]
        for e in events
        if e["type"] == "agent_event" and e["event"]["type"] == inner
    ]


PLANNER = subagent_yaml("planner", description="작업을 단계로 나누는 기획자", capabilities=["계획"])
WRITER = subagent_yaml("writer", description="보고서 작성", capabilities=["보고서"], level=1)


async def test_market_gives_the_task_to_the_best_match_and_remembers_the_delegation(
    tmp_path: Path,
) -> None:
    declare(tmp_path, PLANNER, WRITER)
    app = make_app(tmp_path)
    use_model(app, by_role({"planner": lambda c: "plan", "writer": lambda c: "the report"}))
    registry(app)
    ctx, events = context()
    result = await run(app, ctx, "orchestrate", pattern="market", task="보고서 작성해 줘")
    assert (result.content, result.is_error) == ("the report", False)
    assert paths(events, "agent_start") == [["main", "writer"]]
    episodes = await app.memory.episodes("main", "local")
    assert [(e.utterance, e.answer, e.metadata["agent_path"]) for e in episodes] == [
        ("[writer] 보고서 작성해 줘", "the report", ["main", "writer"])
    ]


async def test_hierarchical_hands_each_levels_results_to_the_next(tmp_path: Path) -> None:
    declare(tmp_path, WRITER, PLANNER)  # declared out of order: levels decide
    app = make_app(tmp_path)
    seen: list[str] = []

    def writer(ctx: LLMContext) -> str:
        seen.append(ctx.messages[-1].content)  # type: ignore[union-attr]
        return "report from plan"

    use_model(app, by_role({"planner": lambda c: "1. gather 2. write", "writer": writer}))
    registry(app)
    ctx, events = context()
    result = await run(app, ctx, "orchestrate", pattern="hierarchical", task="write a report")
    assert result.content == "report from plan"
    assert [p[-1] for p in paths(events, "agent_start")] == ["planner", "writer"]
    assert seen == ["[앞 단계 결과]\n1. gather 2. write\n\nwrite a report"]


async def test_the_supervisor_delegates_step_by_step_until_done(tmp_path: Path) -> None:
    declare(tmp_path, PLANNER, WRITER)
    app = make_app(tmp_path)
    decisions = iter(
        [
            '{"delegate": "planner", "task": "make a plan"}',
            '{"delegate": "writer", "task": "write from the plan"}',
            '{"done": "final: report written"}',
        ]
    )
    use_model(
        app,
        by_role(
            {"planner": lambda c: "plan!", "writer": lambda c: "report!"},
            default=lambda c: next(decisions),  # the supervisor's prompt names no role
        ),
    )
    registry(app)
    ctx, events = context()
    result = await run(app, ctx, "orchestrate", pattern="supervisor", task="a report")
    assert result.content == "final: report written"
    started = [p for p in paths(events, "agent_start")]
    assert started == [
        ["main", "supervisor"],
        ["main", "planner"],
        ["main", "supervisor"],
        ["main", "writer"],
        ["main", "supervisor"],
    ]


class MeetingProvider(FauxProvider):
    """Answers only once `expected` calls are in flight together: a sequential run would wait
    forever (the test's timeout fails it)."""

    def __init__(self, expected: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.barrier = asyncio.Barrier(expected)

    async def stream(
        self, model: str, ctx: LLMContext, options: StreamOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        await self.barrier.wait()
        async for event in super().stream(model, ctx, options):
            yield event


async def test_blackboard_runs_everyone_at_once_and_aggregates(tmp_path: Path) -> None:
    names = ["a", "b", "c"]
    declare(tmp_path, *(subagent_yaml(n) for n in names))
    app = make_app(tmp_path)
    script = by_role({n: (lambda c, n=n: f"{n} wrote") for n in names})
    use_model(app, MeetingProvider(3, script=script._script))
    registry(app)
    ctx, _ = context()
    async with asyncio.timeout(HANG_GUARD_SEC):
        result = await run(app, ctx, "orchestrate", pattern="blackboard", task="research")
    assert sorted(result.content.split("\n\n")) == ["[a]\na wrote", "[b]\nb wrote", "[c]\nc wrote"]


async def test_blackboard_agents_see_the_shared_work_memory(tmp_path: Path) -> None:
    declare(tmp_path, subagent_yaml("a"), subagent_yaml("b"))
    app = make_app(tmp_path)
    shown: dict[str, str] = {}

    def reply(name: str) -> Any:
        def answer(ctx: LLMContext) -> str:
            shown[name] = ctx.messages[-1].content  # type: ignore[union-attr]
            return f"{name} found X"

        return answer

    use_model(app, by_role({"a": reply("a"), "b": reply("b")}))
    registry(app, blackboard_concurrency=1)  # one at a time: b starts after a wrote
    ctx, _ = context()
    await run(app, ctx, "orchestrate", pattern="blackboard", task="look")
    assert shown == {"a": "look", "b": "[작업 공유 메모리]\n- a: a found X\n\nlook"}
    # The parent session's next turns see the board too.
    recalled = await app.memory.observe(MemoryScope("main", "local", "s1", 2), "anything")
    assert recalled == "[작업 공유 메모리]\n- a: a found X\n- b: b found X"


async def test_a_pipeline_feeds_each_patterns_result_to_the_next(tmp_path: Path) -> None:
    declare(tmp_path, PLANNER, WRITER)
    app = make_app(tmp_path)
    asked: list[str] = []

    def writer(ctx: LLMContext) -> str:
        asked.append(ctx.messages[-1].content)  # type: ignore[union-attr]
        return "report"

    use_model(app, by_role({"planner": lambda c: "the plan", "writer": writer}))
    registry(app)
    ctx, _ = context()
    result = await run(app, ctx, "orchestrate", pattern="market,blackboard", task="계획 세워 줘")
    assert "[writer]\nreport" in result.content and "[planner]\nthe plan" in result.content
    assert asked[0].startswith("[이전 단계 결과]\nthe plan")


async def test_the_budget_stops_an_orchestration_and_says_so(tmp_path: Path) -> None:
    declare(tmp_path, PLANNER, WRITER)
    app = make_app(tmp_path)
    model = by_role(
        {"planner": lambda c: "plan"},
        default=lambda c: '{"delegate": "planner", "task": "again"}',  # never done
    )
    use_model(app, model)
    registry(app, max_model_calls=5)
    ctx, _ = context()
    result = await run(app, ctx, "orchestrate", pattern="supervisor", task="loop forever")
    assert model.call_count == 5
    assert result.content.startswith("모델 호출 예산(5회)을 다 써서 멈췄습니다.")


async def test_a_subagents_bash_call_asks_the_human_in_the_parent_sessions_windows(
    tmp_path: Path,
) -> None:
    declare(tmp_path, subagent_yaml("coder", tools=["bash"]))
    app = make_app(tmp_path)
    use_model(app, by_role({"coder": after_tool(bash("echo from-coder"), lambda r: f"ran: {r}")}))
    registry(app)
    human = Human(app, ["allow"])
    app.channels.attach("s1", human)
    ctx, events = context()
    result = await run(app, ctx, "agent_coder", task="run it")
    assert "from-coder" in result.content and not result.is_error
    (request,) = human.requests
    assert (request.session_id, request.agent_id, request.tool) == ("s1", "main", "bash")
    assert request.agent_path == ["main", "coder"]
    # The same gate: its decision is audited and reported on the nested tool event.
    ends = [e["event"] for e in events if e["event"].get("type") == "tool_execution_end"]
    assert ends[0]["decision"]["reason"] == "user_once"
    audited = await app.audit.query(limit=10, tool="bash")
    assert [(r.agent, r.session, r.outcome) for r in audited] == [("main", "s1", "allow")]


async def test_stop_in_the_parent_stops_the_children_and_their_pending_approvals(
    tmp_path: Path,
) -> None:
    declare(tmp_path, subagent_yaml("a", tools=["bash"]), subagent_yaml("b", tools=["bash"]))
    app = make_app(tmp_path)
    use_model(app, by_role({"a": lambda c: bash("echo a"), "b": lambda c: bash("echo b")}))
    registry(app)
    human = Human(app)  # never answers
    app.channels.attach("s1", human)
    ctx, _ = context()
    work = asyncio.create_task(run(app, ctx, "orchestrate", pattern="blackboard", task="x"))
    while len(human.requests) < 2:  # both children wait for a human
        human.asked.clear()
        await human.asked.wait()
    ctx.abort.set()  # what the parent session's Stop does
    async with asyncio.timeout(HANG_GUARD_SEC):
        result = await work
    assert result.is_error and result.content == "중단했습니다."
    assert human.resolved_with == ["cancelled", "cancelled"]
    for request in human.requests:
        item = await app.pending.get(request.id)
        assert item is not None and item.status == "cancelled"


async def test_an_unattended_subagent_never_gets_approval_requiring_tools(tmp_path: Path) -> None:
    declare(tmp_path, subagent_yaml("coder", tools=["read_file", "list_dir", "bash", "write_file"]))
    (tmp_path / "team").mkdir()
    karen = {"name": "KAREN", "boundaries": {"ask": ["list_dir"]}}
    (tmp_path / "team" / "karen.yaml").write_text(json.dumps(karen), "utf-8")
    app = make_app(tmp_path)
    model = by_role({"coder": lambda c: "nothing to run"})
    use_model(app, model)
    registry(app)
    ctx, _ = context(unattended=True)
    await run(app, ctx, "agent_coder", task="fix it")
    assert [tool.name for tool in model.calls[-1].tools] == ["read_file", "list_dir"]
    # KAREN's `boundaries.ask` also leaves her unattended sub-agents.
    karens, _ = context(agent="karen", unattended=True)
    await run(app, karens, "agent_coder", task="fix it")
    assert [tool.name for tool in model.calls[-1].tools] == ["read_file"]
    attended, _ = context()
    await run(app, attended, "agent_coder", task="fix it")
    assert sorted(tool.name for tool in model.calls[-1].tools) == [
        "bash",
        "list_dir",
        "read_file",
        "write_file",
    ]


async def test_depth_is_limited_by_code(tmp_path: Path) -> None:
    declare(
        tmp_path,
        subagent_yaml("lead", tools=["agent_worker", "orchestrate"]),
        subagent_yaml("worker", tools=["agent_lead", "read_file"]),
    )
    app = make_app(tmp_path)
    model = by_role(
        {
            "lead": after_tool(call("agent_worker", task="do it"), lambda r: f"lead got: {r}"),
            "worker": lambda c: "worked",
        }
    )
    use_model(app, model)
    registry(app)
    ctx, events = context()
    result = await run(app, ctx, "agent_lead", task="go")
    assert result.content == "lead got: worked"
    assert paths(events, "agent_start") == [["main", "lead"], ["main", "lead", "worker"]]
    # The worker runs at depth 2: no tool that would start a third level.
    (worker,) = [c for c in model.calls if "role:worker" in c.system_prompt]
    assert [tool.name for tool in worker.tools] == ["read_file"]
    deep = ToolCallContext("s1", "main", 1, asyncio.Event(), agent_path=("main", "x", "y"))
    refused = await run(app, deep, "agent_worker", task="deeper")
    assert refused.is_error and "깊이 한도(2)" in refused.content


async def test_a_team_agents_subagents_get_no_tool_it_may_not_use(tmp_path: Path) -> None:
    declare(tmp_path, subagent_yaml("coder", tools=["read_file", "bash", "write_file"]))
    (tmp_path / "team").mkdir()
    karen = {
        "name": "KAREN",
        "tools": ["read_file", "write_file"],
        "boundaries": {"never": ["write_file"]},
    }
    (tmp_path / "team" / "karen.yaml").write_text(json.dumps(karen), "utf-8")
    app = make_app(tmp_path)
    model = by_role({"coder": lambda c: "done"})
    use_model(app, model)
    registry(app)
    ctx, _ = context(agent="karen")
    await run(app, ctx, "agent_coder", task="x")
    assert [tool.name for tool in model.calls[-1].tools] == ["read_file"]


@pytest.mark.parametrize(
    ("stm", "same_session", "other_session"),
    [
        ("per_parent_session", True, False),
        ("per_task", False, False),
        ("per_agent", True, True),
    ],
)
async def test_short_term_memory_follows_memory_stm(
    tmp_path: Path, stm: str, same_session: bool, other_session: bool
) -> None:
    declare(tmp_path, subagent_yaml("coder", memory={"stm": stm}))
    app = make_app(tmp_path)
    model = by_role({"coder": lambda c: f"answer {len(c.messages)}"})
    use_model(app, model)
    registry(app)
    first, _ = context("s1")
    await run(app, first, "agent_coder", task="first task")
    await run(app, first, "agent_coder", task="second task")
    remembered = [m.content for m in model.calls[-1].messages]
    assert ("first task" in remembered) is same_session
    other, _ = context("s2")
    await run(app, other, "agent_coder", task="third task")
    remembered = [m.content for m in model.calls[-1].messages]
    assert ("first task" in remembered) is other_session
