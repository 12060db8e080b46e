"""Procedure learning's pure rules, one row per rule of seed 000 "절차 학습"."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from jarvis.core.procedures.candidates import KindFile, LearnStep, plan_refinement, success_counts
from jarvis.core.procedures.convergence import plan_convergence
from jarvis.core.procedures.distill import PlanStep, fill_plan, valid_plan
from jarvis.core.procedures.model import Procedure, parse_edm_source
from jarvis.core.procedures.segment import ToolUse, learnable_path
from jarvis.core.procedures.update_guard import GuardContext, Proposal, update_guard
from jarvis.memory import make_episode


def ep(tool: str | None, outcome: str = "success", agent: str = "main") -> Any:
    return make_episode(
        agent_id=agent, user_id="u", session_id="s", turn=1, ts_ms=1, utterance="q", answer="a",
        successful_calls=[(tool, {})] if tool else [], outcome=outcome, overflow=False,
    )  # fmt: skip


def test_only_successful_tool_turns_of_this_agent_count() -> None:
    episodes = [
        ep("list_dir"), ep("list_dir", "failure"), ep(None), ep("list_dir", agent="karen"),
        ep("list_dir"), ep("glob"),
    ]  # fmt: skip
    assert success_counts(episodes, "main") == Counter({"list_dir": 2, "glob": 1})


@pytest.mark.parametrize(
    ("counts", "files", "held", "expected"),
    [
        ({"k": 2}, {}, 0, []),  # fewer than 3 successes: no candidate
        ({"k": 3}, {}, 0, [LearnStep("k", 1, "new_draft")]),
        ({"k": 5}, {"k": KindFile("draft", 1)}, 1, []),  # generation 1 handled: no model call
        ({"k": 6}, {"k": KindFile("draft", 1)}, 1, [LearnStep("k", 2, "edit_draft")]),
        ({"k": 6}, {"k": KindFile("approved", 1)}, 1, [LearnStep("k", 2, "attach_revision")]),
        ({"k": 6}, {"k": KindFile("rejected", 2)}, 1, []),  # a rejected generation is not redone
        ({"k": 3}, {}, 30, [LearnStep("k", 1, "over_cap")]),  # cap: no new kind
        ({"k": 6}, {"k": KindFile("approved", 1)}, 30, [LearnStep("k", 2, "attach_revision")]),
        ({"a": 3, "b": 3}, {}, 29, [LearnStep("a", 1, "new_draft"), LearnStep("b", 1, "over_cap")]),
        ({"k": 30}, {}, 0, [LearnStep("k", 10, "new_draft")]),
    ],
)
def test_plan_refinement(
    counts: dict[str, int], files: dict[str, KindFile], held: int, expected: list[LearnStep]
) -> None:
    assert plan_refinement(Counter(counts), files, held) == expected


COPIED = "요청: 다음 목록에서 짝수의 합을 구하고 그 결과를 한 줄로 표로 정리해서 보여 주세요"
OK_CTX = GuardContext(has_procedure=True, room=True, graded_answer="42", failed_requests=(
    "다음 목록에서 짝수의 합을 구하고 그 결과를 한 줄로 표로 정리해서 보여 주세요 제발요",
))  # fmt: skip


@pytest.mark.parametrize(
    ("proposal", "ctx", "reason"),
    [
        (Proposal("execution_slip", "no_change"), OK_CTX, None),
        (Proposal("procedure", "revise_procedure", "1. 합을 다시 검산한다"), OK_CTX, None),
        (Proposal("agent_behavior", "task_pattern", "표로 답한다", "형식 지시", ("표",)), OK_CTX,
         None),
        # 1. the scope/action pair
        (Proposal("execution_slip", "revise_procedure", "x"), OK_CTX, "scope execution_slip"),
        (Proposal("procedure", "task_pattern", "x", "w", ("k",)), OK_CTX, "scope procedure"),
        (Proposal("routing", "no_change"), OK_CTX, "scope routing"),
        # 2. empty or too long
        (Proposal("procedure", "revise_procedure", "  "), OK_CTX, "content is empty"),
        (Proposal("procedure", "revise_procedure", "가" * 1501), OK_CTX, "longer than 1500"),
        # 3. a task pattern needs when and keywords
        (Proposal("agent_behavior", "task_pattern", "표로", "", ("표",)), OK_CTX, "when and"),
        (Proposal("agent_behavior", "task_pattern", "표로", "형식", ()), OK_CTX, "when and"),
        # 4. the graded answer
        (Proposal("procedure", "revise_procedure", "정답은 42 이다"), OK_CTX, "answer"),
        # 5. 40+ characters copied from the failed request
        (Proposal("procedure", "revise_procedure", COPIED),
         OK_CTX, "copies 40+"),
        # 6. room under the cap for a new file
        (Proposal("procedure", "revise_procedure", "1. 검산"),
         GuardContext(has_procedure=False, room=False), "no room"),
        (Proposal("procedure", "revise_procedure", "1. 검산"),
         GuardContext(has_procedure=True, room=False), None),  # a revision needs no room
        (Proposal("agent_behavior", "task_pattern", "표로", "형식", ("표",)),
         GuardContext(has_procedure=True, room=False), "no room"),
        # the order: a wrong pair is reported before an empty content
        (Proposal("execution_slip", "task_pattern", ""), OK_CTX, "scope execution_slip"),
        # the order: too long is reported before the copied request
        (Proposal("procedure", "revise_procedure", "42" * 800), OK_CTX, "longer than"),
    ],
)  # fmt: skip
def test_update_guard(proposal: Proposal, ctx: GuardContext, reason: str | None) -> None:
    verdict = update_guard(proposal, ctx)
    if reason is None:
        assert verdict is None
    else:
        assert verdict is not None and reason in verdict


@pytest.mark.parametrize(
    ("uses", "kept"),
    [
        (["a", "b", "c"], ["a", "b", "c"]),
        (["a", "b"], None),  # fewer than 3 uses
        (["a", "b!", "b", "c"], ["a", "b", "c"]),  # recovered: the failure is left out
        (["a", "b!", "c", "d"], None),  # never recovered: not learned
        (["a!", "a!", "a", "b", "c"], ["a", "b", "c"]),
    ],
)
def test_learnable_path(uses: list[str], kept: list[str] | None) -> None:
    path = learnable_path([ToolUse(u.rstrip("!"), {}, u.endswith("!")) for u in uses])
    assert (None if path is None else [u.name for u in path]) == kept


@pytest.mark.parametrize(
    ("plan", "tools", "inputs", "valid"),
    [
        ([PlanStep(tool="bash", args={"command": "ls {{dir}}"})], {"bash"}, ["dir"], True),
        ([PlanStep(tool="write_file", args={})], {"bash"}, [], False),  # tool not learned
        ([PlanStep(tool="bash", args={"command": "ls {{other}}"})], {"bash"}, ["dir"], False),
    ],
)
def test_valid_plan(plan: list[PlanStep], tools: set[str], inputs: list[str], valid: bool) -> None:
    assert (valid_plan(plan, tools, inputs) == plan) is valid


def test_fill_plan_keeps_types_of_whole_placeholders() -> None:
    plan = [PlanStep(tool="read_file", args={"path": "{{file}}", "limit": "{{n}}", "x": "a {{n}}"})]
    assert fill_plan(plan, {"file": "README.md", "n": 20})[0].args == {
        "path": "README.md", "limit": 20, "x": "a 20",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("source", "parsed"),
    [
        ("edm:main:list_dir", ("main", "list_dir", None)),
        ("edm:karen:lh_notice:7", ("karen", "lh_notice", 7)),
        ("default#32", None),
        ("session:abc:1-3", None),
    ],
)
def test_parse_edm_source(source: str, parsed: Any) -> None:
    assert parse_edm_source(source) == parsed


def legacy(gen: int, status: str, kind: str = "lh_notice") -> tuple[Path, Procedure]:
    return Path(f"p-{kind}-{gen}.md"), Procedure(
        name=f"p-{kind}-{gen}", status=status, source=f"edm:karen:{kind}:{gen}", agent="karen",
        generation=gen, body=f"gen {gen}",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("statuses", "kept", "revision", "archived"),
    [
        # generation 1 approved, 2–10 drafts: keep 1, the latest draft (10) as its revision
        (["approved"] + ["draft"] * 9, 1, 10, 9),
        (["draft"] * 3, 3, None, 2),  # nothing approved: the latest generation
        (["approved", "approved", "draft"], 2, 3, 2),  # the latest approved
        (["draft", "approved"], 2, None, 1),  # no draft later than the approved one
    ],
)
def test_plan_convergence(
    statuses: list[str], kept: int, revision: int | None, archived: int
) -> None:
    entries = [legacy(gen, status) for gen, status in enumerate(statuses, start=1)]
    (plan,) = plan_convergence(entries)
    assert plan.keep == Path(f"p-lh_notice-{kept}.md")
    assert plan.result.source == "edm:karen:lh_notice"
    assert plan.result.generation == len(statuses)
    assert (plan.result.revision.generation if plan.result.revision else None) == revision
    assert len(plan.archive) == archived


def test_a_converged_disk_plans_nothing() -> None:
    one = Procedure(name="p", source="edm:karen:lh_notice", agent="karen", generation=10)
    assert plan_convergence([(Path("p.md"), one)]) == []
