"""Seed 000's third unattended turn kind, "do it ahead" (먼저 해 두기): work prepared before a
schedule's next run or an AGENDA promise is due, through the real server, engine and session
with the scripted model. Only the owner's pre-approved tools run; any other approval-requiring
call is refused without asking; a missing grant blocks the run before the model is called."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
from ruamel.yaml import YAML

from jarvis.agent_layer.openloop.openloop_model import OpenLoop
from jarvis.app.unattended.runtime import UnattendedRuntime
from jarvis.app.unattended.service import Unattended
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of, write_schedule
from tests.support.live_server import LiveServer, Tab, live_server
from tests.support.processes import bash

SEOUL = ZoneInfo("Asia/Seoul")
NINE = int(datetime(2026, 12, 3, 9, 0, tzinfo=SEOUL).timestamp() * 1000)
MINUTE = 60_000
NINE_UTC = "2026-12-03T00:00:00+00:00"


def write_ahead(home: Path, ahead_id: str, **fields: Any) -> None:
    path = home / "ahead" / f"{ahead_id}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"minutes_before": 30, "prompt": "자료를 모아 prep.txt 로 준비해 둬", **fields}
    with path.open("w", encoding="utf-8") as out:
        YAML(typ="safe").dump(data, out)


async def granted(
    server: LiveServer, ahead_id: str, tools: list[str]
) -> tuple[Unattended, UnattendedRuntime]:
    """The server's unattended service and runtime, with the owner's grant of `tools`."""
    service = unattended_of(server)
    assert service.runtime is not None
    ahead = service.definition(f"ahead:{ahead_id}")
    await on_server(server, service.preapprovals.grant(ahead, tools, "local"))
    return service, service.runtime


async def test_work_for_a_schedule_runs_once_ahead_with_its_preapproved_tool(
    tmp_path: Path,
) -> None:
    write_schedule(tmp_path, "brief", when="every day 9:00", prompt="아침 요약")
    write_ahead(tmp_path, "prep", **{"for": "schedule:brief", "tools": ["bash"]})
    script = [bash("echo prepared > prep.txt"), "준비해 두었습니다", "요약입니다"]
    with live_server(tmp_path, script, scheduler=MANUAL) as server:
        service, runtime = await granted(server, "prep", ["bash"])
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        assert await on_server(server, runtime.tick(NINE - 31 * MINUTE)) == []  # not yet
        started = await on_server(server, runtime.tick(NINE - 29 * MINUTE))
        assert started == [f"ahead:prep:{NINE_UTC}"]
        assert await on_server(server, runtime.tick(NINE - 28 * MINUTE)) == []  # once
        result = await on_server(server, service.engine.wait(started[0]))
        message = await tab.next("proactive_message")
        assert result["status"] == "ok" and result["answer"] == "준비해 두었습니다"
        assert message["message_id"] == f"ahead:prep:{NINE_UTC}" and message["kind"] == "answer"
        assert "준비해 두었습니다" in message["text"]
        assert (tmp_path / "prep.txt").read_text() == "prepared\n"
        async with httpx.AsyncClient(headers=server.headers) as http:
            history = await http.get(f"{server.url}/api/sessions/{result['session_id']}/history")
            audit = (await http.get(f"{server.url}/api/audit?tool=bash")).json()
        asked = history.json()[0]["message"]["content"]
        assert "먼저 해 두기" in asked and "아침 요약" in asked and "prep.txt" in asked
        assert [(a["outcome"], a["reason"]) for a in audit] == [
            ("preapproval_granted", "ahead:prep"),
            ("allow", "preapproved"),
        ]
        await tab.close()


async def test_a_tool_that_was_not_preapproved_is_refused_without_asking(tmp_path: Path) -> None:
    write_schedule(tmp_path, "brief", when="every day 9:00", prompt="아침 요약")
    write_ahead(tmp_path, "prep", **{"for": "schedule:brief", "tools": ["write_file"]})
    script = [bash("echo sneaky > sneaky.txt"), "bash 를 쓸 수 없었습니다"]
    with live_server(tmp_path, script, scheduler=MANUAL) as server:
        service, runtime = await granted(server, "prep", ["write_file"])
        (run_id,) = await on_server(server, runtime.tick(NINE - 10 * MINUTE))
        result = await on_server(server, service.engine.wait(run_id))
        assert result["status"] == "blocked" and "bash: approval_unavailable" in result["reason"]
        assert not (tmp_path / "sneaky.txt").exists()


async def test_without_the_owners_grant_nothing_runs_and_the_owner_is_told(
    tmp_path: Path,
) -> None:
    write_ahead(tmp_path, "draft", **{"for": "loop:report-l", "tools": ["bash"]})  # a prefix
    write_ahead(tmp_path, "theirs", **{"for": "loop:bobs-loop", "tools": []})
    with live_server(tmp_path, [bash("echo hi > hi.txt"), "done"], scheduler=MANUAL) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None
        store = service.app.openloops.store

        def loop(loop_id: str, user: str) -> OpenLoop:
            return OpenLoop(
                id=loop_id, agent_id="main", user_id=user, session_id="s",
                description="분기 보고서 보내기", due_ms=NINE, created_ms=0, updated_ms=0,
            )  # fmt: skip

        both = [loop("report-loop", "local"), loop("bobs-loop", "bob")]
        await on_server(server, store.save(both))
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        started = await on_server(server, runtime.tick(NINE - 5 * MINUTE))
        assert started == [f"ahead:draft:{NINE_UTC}"]  # bob's promise is not local's to prepare
        result = await on_server(server, service.engine.wait(started[0]))
        message = await tab.next("proactive_message")
        assert result["status"] == "blocked" and "TOOL_APPROVAL_REQUIRED" in result["reason"]
        assert message["status"] == "blocked" and "ahead:draft" in message["text"]
        assert not (tmp_path / "hi.txt").exists()
        late = await on_server(server, runtime.tick(NINE + MINUTE))
        assert [r for r in late if r.startswith("ahead:")] == []  # due now: too late
        await tab.close()
