"""The model proposes a Focus task (`focus`) or a source to watch (`watch_source`) through the
real server: the gate always asks — even with a hand-written allow rule for the tool, and with
no ALWAYS offered — and nothing exists until the person approves. An approved task is planned
by the ticker like one typed with `/focus`; an approved source is written off, and only its
owner's pre-approval of web_fetch turns it on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jarvis.core.focus.store import FocusStore
from jarvis.core.sources.definition import load_sources
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of
from tests.support.live_server import Tab, live_server

# A rule the person wrote by hand: it must not approve a standing action.
RULES = 'rules:\n  - {tool: focus, pattern: "*"}\n  - {tool: watch_source, pattern: "*"}\n'


def _call(tool: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": tool, "arguments": arguments}]}


def _rules(home: Path) -> None:
    (home / "approvals").mkdir(parents=True, exist_ok=True)
    (home / "approvals" / "main.yaml").write_text(RULES, encoding="utf-8")


async def test_a_proposed_focus_task_exists_only_after_the_person_approves(
    tmp_path: Path,
) -> None:
    _rules(tmp_path)
    propose = _call("focus", objective="내구성 워크플로 엔진 세 가지 비교")
    plan = json.dumps(["자료 찾기", "비교"], ensure_ascii=False)
    with live_server(tmp_path, [propose, propose, "시작했어요", plan], scheduler=MANUAL) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        await tab.send(type="prompt", text="워크플로 엔진들 오래 걸려도 좋으니 조사해 줘")
        request = await tab.next("approval_request")
        assert request["tool"] == "focus"
        assert "always" not in request["options"]
        assert request["no_always_reason"] == "no_standing_consent"
        await tab.send(type="approval", id=request["id"], answer="deny")
        await tab.next("agent_end")
        assert FocusStore(tmp_path).tasks() == []

        await tab.send(type="prompt", text="다시, 이번엔 승인할게")
        request = await tab.next("approval_request")
        await tab.send(type="approval", id=request["id"], answer="allow")
        state = await tab.next("focus_state")
        assert (state["state"], state["objective"]) == (
            "planning",
            "내구성 워크플로 엔진 세 가지 비교",
        )
        panel = await tab.next("focus_panel")
        assert panel["task_id"] == state["task_id"] and panel["busy"]
        await tab.next("agent_end")
        (task,) = FocusStore(tmp_path).tasks()
        assert (task.owner, task.status) == ("local", "planning")

        # the ticker plans it like a task typed with /focus
        (run_id,) = await on_server(server, runtime.tick(service.app.clock.now_ms()))
        assert run_id == f"focus:{task.id}:plan"
        await on_server(server, service.engine.wait(run_id))
        planned = FocusStore(tmp_path).load(task.id)
        assert planned is not None and planned.status == "waiting"
        assert [s.title for s in planned.steps] == ["자료 찾기", "비교"]
        await tab.close()


async def test_a_proposed_source_is_written_off_and_only_its_owner_turns_it_on(
    tmp_path: Path,
) -> None:
    _rules(tmp_path)
    propose = _call(
        "watch_source", url="https://blog.python.org/feeds/posts/default", name="python-news",
        every="2 hours", match=["release"],
    )  # fmt: skip
    with live_server(tmp_path, [propose, propose, "추가했어요"], scheduler=MANUAL) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        await tab.send(type="prompt", text="파이썬 블로그 새 릴리스 소식 지켜봐 줘")
        request = await tab.next("approval_request")
        assert request["tool"] == "watch_source" and "always" not in request["options"]
        assert {a["key"] for a in request["args"]} >= {"url", "match"}
        await tab.send(type="approval", id=request["id"], answer="deny")
        await tab.next("agent_end")
        assert load_sources(tmp_path) == ([], {})
        tab.events.clear()  # the denied turn's events

        await tab.send(type="prompt", text="좋아, 승인할게")
        request = await tab.next("approval_request")
        await tab.send(type="approval", id=request["id"], answer="allow")
        end = await tab.next("tool_execution_end")
        assert "web_fetch" in end["result_preview"] and "blog.python.org" in end["result_preview"]
        await tab.next("agent_end")
        ((source,), errors) = load_sources(tmp_path)
        assert errors == {}
        assert (source.id, source.owner, source.enabled) == ("python-news", "local", False)
        assert (source.every, source.match) == ("2 hours", ["release"])
        # off: the ticker polls nothing (no request leaves for the host)
        assert await on_server(server, runtime.tick(service.app.clock.now_ms())) == []
        rows = await service.preapprovals.status(source)
        assert [(r.tool, r.state) for r in rows] == [("web_fetch", "missing")]
        await tab.close()
