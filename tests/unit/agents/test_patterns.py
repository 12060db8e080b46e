"""The orchestration judgements (core/agents/patterns.py, selection.py), one row per case."""

from __future__ import annotations

import pytest

from jarvis.core.agents.patterns import (
    SupervisorStep,
    aggregate,
    capability_score,
    levels,
    market_pick,
    parse_pipeline,
    parse_supervisor,
    with_context,
    work_memory,
)
from jarvis.core.agents.selection import subagent_tools
from jarvis.core.agents.specs import SubAgentSpec

PLANNER = SubAgentSpec(
    name="planner", description="작업을 단계로 나누는 기획자", capabilities=["계획"]
)
WRITER = SubAgentSpec(
    name="writer", description="보고서 작성", capabilities=["작성", "보고서"], level=1
)
CODER = SubAgentSpec(
    name="coder", description="writes and tests code", capabilities=["python", "test"], level=1
)
TEAM = [PLANNER, WRITER, CODER]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("supervisor", ["supervisor"]),
        ("Market", ["market"]),
        ("hierarchical,blackboard", ["hierarchical", "blackboard"]),
        (" market , supervisor ", ["market", "supervisor"]),
        ("blackboard,blackboard", ["blackboard", "blackboard"]),
    ],
)
def test_pipelines_parse_in_order(text: str, expected: list[str]) -> None:
    assert parse_pipeline(text) == expected


@pytest.mark.parametrize(
    ("text", "bad"), [("", "no pattern"), ("swarm", "swarm"), ("market,", "unknown pattern")]
)
def test_unknown_or_empty_patterns_are_refused(text: str, bad: str) -> None:
    with pytest.raises(ValueError, match=bad):
        parse_pipeline(text)


@pytest.mark.parametrize(
    ("task", "expected"),
    [
        ("이 내용으로 보고서 작성해 줘", "writer"),
        ("다음 분기 계획 세워 줘", "planner"),
        ("write a python test for the parser", "coder"),
        ("nothing matches here", "planner"),  # a tie goes to the first declared
    ],
)
def test_market_gives_the_task_to_the_best_match(task: str, expected: str) -> None:
    chosen = market_pick(TEAM, task)
    assert chosen is not None and chosen.name == expected


def test_market_with_nobody_picks_nobody() -> None:
    assert market_pick([], "anything") is None


def test_a_named_capability_outweighs_a_shared_description_word() -> None:
    assert capability_score(WRITER, "보고서") == 3 + 1
    assert capability_score(CODER, "code") == 1  # a description word only
    # Capabilities match inside words (Korean particles: "보고서를"), description words whole.
    assert capability_score(CODER, "tests") == 3 + 1
    assert capability_score(WRITER, "보고서를 써 줘") == 3


def test_levels_group_lowest_first_in_declared_order() -> None:
    assert [[a.name for a in group] for group in levels(TEAM)] == [["planner"], ["writer", "coder"]]
    assert levels([]) == []


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            '{"delegate": "writer", "task": "draft it"}',
            SupervisorStep("delegate", "writer", "draft it"),
        ),
        (
            'Sure. {"delegate":"planner","task":"plan"} ok',
            SupervisorStep("delegate", "planner", "plan"),
        ),
        ('{"done": "all finished"}', SupervisorStep("done", answer="all finished")),
        ("DELEGATE coder: write the test", SupervisorStep("delegate", "coder", "write the test")),
        ("done: 끝났습니다", SupervisorStep("done", answer="끝났습니다")),
        ("the final answer", SupervisorStep("done", answer="the final answer")),
        ('{"delegate": "ghost", "task": "x"}', SupervisorStep("invalid", "ghost", "x")),
        ('{"delegate": "writer", "task": ""}', SupervisorStep("invalid", "writer", "")),
        ("{not json", SupervisorStep("done", answer="{not json")),
    ],
)
def test_supervisor_replies_become_steps(reply: str, expected: SupervisorStep) -> None:
    assert parse_supervisor(reply, ["planner", "writer", "coder"]) == expected


def test_work_memory_is_the_seed_section() -> None:
    assert work_memory([]) == ""
    assert work_memory([("planner", "3 steps"), ("writer", "draft")]) == (
        "[작업 공유 메모리]\n- planner: 3 steps\n- writer: draft"
    )


def test_context_goes_in_front_of_the_task_and_results_are_named() -> None:
    assert with_context("task", "") == "task"
    assert with_context("task", "ctx") == "ctx\n\ntask"
    assert aggregate([("a", "only")]) == "only"
    assert aggregate([("a", "x"), ("b", "y")]) == "[a]\nx\n\n[b]\ny"


ASKS = {"bash", "write_file", "web_fetch"}


@pytest.mark.parametrize(
    ("declared", "depth", "unattended", "never", "expected"),
    [
        (["read_file", "bash"], 1, False, (), ["read_file", "bash"]),
        (["read_file", "bash", "write_file"], 1, True, (), ["read_file"]),  # nobody to ask
        (["read_file", "ghost_tool"], 1, False, (), ["read_file"]),  # only tools that exist
        (["bash", "read_file"], 1, False, ("bash",), ["read_file"]),  # the agent's never
        (["agent_writer", "orchestrate"], 1, False, (), ["agent_writer", "orchestrate"]),
        (["agent_writer", "orchestrate", "ask_agent"], 2, False, (), []),  # depth 2 is the last
        (["read_file", "read_file"], 1, False, (), ["read_file"]),
    ],
)
def test_code_decides_a_subagents_tools(
    declared: list[str], depth: int, unattended: bool, never: tuple[str, ...], expected: list[str]
) -> None:
    available = {
        "read_file",
        "bash",
        "write_file",
        "web_fetch",
        "agent_writer",
        "orchestrate",
        "ask_agent",
    }
    chosen = subagent_tools(
        declared,
        available,
        depth=depth,
        max_depth=2,
        unattended=unattended,
        requires_approval=lambda name: name in ASKS,
        never=never,
    )
    assert chosen == expected
