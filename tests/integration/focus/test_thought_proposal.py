"""A thought that decides `start_focus` proposes a Focus task through the ordinary `focus`
tool call (docs/focus.md): the turn opens with the call — the scripted answer model is not
asked for it — and the gate asks the person like for any call (no ALWAYS). Denied: no task,
and the turn ends by code with no further model call. Allowed: the task exists, its panel
fills, and the model answers with the tool's result in view. Real server, scripted model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jarvis.core.focus.store import FocusStore
from tests.integration.unattended.helpers import MANUAL
from tests.support.live_server import Tab, live_server

ASK = "내구성 워크플로 엔진 세 가지를 자료 여러 개 찾아서 오래 걸려도 비교 조사해 줘"


def thought(decision: str, confidence: float = 0.9) -> str:
    return json.dumps(
        {
            "interpretation": "내구성 워크플로 엔진 세 가지를 여러 자료로 비교 조사",
            "decision": decision,
            "confidence": confidence,
            "frame": "- 오래 걸리는 조사: 집중 작업으로",
        },
        ensure_ascii=False,
    )


def serving(home: Path, script: list[Any]) -> Any:
    return live_server(home, script, scheduler=MANUAL, thinking={"engine": "always"})


async def test_start_focus_asks_the_person_and_a_denial_ends_the_turn_by_code(
    tmp_path: Path,
) -> None:
    # A thought not sure enough only notes `start_focus`; the sure one opens with the call,
    # and after the denial nothing is left in the script to answer.
    script = [thought("start_focus", 0.3), "어떤 엔진들을 말씀하시나요?", thought("start_focus")]
    with serving(tmp_path, script) as server:
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        await tab.send(type="prompt", text=ASK)
        assert (await tab.next("agent_end"))["ended_by"] == "answer"
        assert "approval_request" not in [e["type"] for e in tab.events]
        tab.events.clear()

        await tab.send(type="prompt", text=ASK)
        assert (await tab.next("inner_thought"))["decision"] == "start_focus"
        request = await tab.next("approval_request")
        assert request["tool"] == "focus" and "always" not in request["options"]
        assert request["no_always_reason"] == "no_standing_consent"
        objective = [a for a in request["args"] if a["key"] == "objective"]
        assert "내구성 워크플로 엔진 세 가지" in json.dumps(objective, ensure_ascii=False)
        await tab.send(type="approval", id=request["id"], answer="deny")
        end = await tab.next("agent_end")
        assert end["ended_by"] == "denied" and end["turns"] == 1
        assert FocusStore(tmp_path).tasks() == []
        assert "agent_error" not in [e["type"] for e in tab.events]  # no model call was made
        await tab.close()


async def test_start_focus_approved_creates_the_task_and_the_model_answers(
    tmp_path: Path,
) -> None:
    script = [thought("start_focus"), "집중 작업으로 시작했어요. 패널에서 진행을 볼 수 있어요."]
    with serving(tmp_path, script) as server:
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        await tab.send(type="prompt", text=ASK)
        request = await tab.next("approval_request")
        assert request["tool"] == "focus"
        await tab.send(type="approval", id=request["id"], answer="allow")
        state = await tab.next("focus_state")
        assert state["state"] == "planning"
        assert state["objective"] == "내구성 워크플로 엔진 세 가지를 여러 자료로 비교 조사"
        end = await tab.next("agent_end")
        assert end["ended_by"] == "answer"
        assert "집중 작업으로 시작했어요" in end["final_message"]["content"]
        (task,) = FocusStore(tmp_path).tasks()
        assert (task.id, task.owner, task.status) == (state["task_id"], "local", "planning")
        await tab.close()
