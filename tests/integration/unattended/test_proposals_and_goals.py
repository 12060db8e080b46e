"""The model proposes a schedule or a goal; nothing exists until the person approves the call.
Goals advance in unattended turns until done, blocked or out of budget, with their log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jarvis.core.scheduler.definitions import load_goal
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of
from tests.support.live_server import Tab, live_server


def _call(tool: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": tool, "arguments": arguments}]}


PROPOSE = _call("schedule", name="brief", when="every weekday 9:00", prompt="메일 요약")


async def test_a_proposed_schedule_exists_only_after_the_person_approves(tmp_path: Path) -> None:
    script = [PROPOSE, PROPOSE, "만들었습니다"]  # a denial ends the turn by code
    with live_server(tmp_path, script, scheduler=MANUAL) as server:
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        await tab.send(type="prompt", text="평일 아침마다 메일 요약해 줘")
        request = await tab.next("approval_request")
        assert request["tool"] == "schedule" and "always" not in request["options"]
        assert {a["key"] for a in request["args"]} >= {"when", "prompt"}
        await tab.send(type="approval", id=request["id"], answer="deny")
        await tab.next("agent_end")
        assert not (tmp_path / "schedules" / "brief.yaml").exists()

        await tab.send(type="prompt", text="다시, 이번엔 승인할게")
        request = await tab.next("approval_request")
        await tab.send(type="approval", id=request["id"], answer="allow")
        await tab.next("agent_end")
        schedule = unattended_of(server).schedule("brief")
        assert (schedule.cron, schedule.owner, schedule.enabled) == ("0 9 * * 1-5", "local", True)
        await tab.close()


async def test_a_goal_advances_until_done_with_its_log(tmp_path: Path) -> None:
    start = _call("goal", action="start", objective="읽기 목록 정리", max_turns=5)
    script = [start, "목표를 만들었습니다", "1단계: 목록을 모았습니다", "2단계: 정리 끝 [DONE]"]
    with live_server(tmp_path, script, scheduler=MANUAL) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        await tab.send(type="prompt", text="읽기 목록 정리를 목표로 잡아 줘")
        request = await tab.next("approval_request")
        await tab.send(type="approval", id=request["id"], answer="allow")
        await tab.next("agent_end")
        (goal,) = service.list_goals()
        for turn in (1, 2):
            (run_id,) = await on_server(server, runtime.tick(0))
            assert run_id == f"goal:{goal.id}:{turn}"
            await on_server(server, service.engine.wait(run_id))
            progress = await tab.next("proactive_message")
            assert progress["goal_id"] == goal.id
        assert await on_server(server, runtime.tick(0)) == []  # done: no more turns
        done = load_goal(tmp_path, goal.id)
        assert done is not None and done.status == "done" and done.turns == 2
        assert [e.text for e in done.log] == ["1단계: 목록을 모았습니다", "2단계: 정리 끝 [DONE]"]
        await tab.close()


async def test_a_goal_stops_out_of_budget_and_can_be_paused(tmp_path: Path) -> None:
    goal_file = tmp_path / "goals" / "tidy.json"
    goal_file.parent.mkdir(parents=True)
    goal_file.write_text(
        json.dumps({"id": "tidy", "objective": "정리", "max_turns": 1}), encoding="utf-8"
    )
    with live_server(
        tmp_path, ["조금 정리했습니다", "더 정리했습니다"], scheduler=MANUAL
    ) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None
        (first,) = await on_server(server, runtime.tick(0))
        await on_server(server, service.engine.wait(first))
        (second,) = await on_server(server, runtime.tick(0))
        result = await on_server(server, service.engine.wait(second))
        assert result["goal_status"] == "out_of_budget"
        stopped = load_goal(tmp_path, "tidy")
        assert stopped is not None and stopped.status == "out_of_budget"
        assert stopped.turns == 1  # the budget check ran no second turn

        goal_file.write_text(
            json.dumps({"id": "later", "objective": "나중에", "status": "paused"}),
            encoding="utf-8",
        )
        assert await on_server(server, runtime.tick(0)) == []  # paused: no turn
