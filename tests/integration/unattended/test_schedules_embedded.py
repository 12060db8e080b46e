"""Schedules on the embedded default (files + SQLite engine) through a real server: a due run
starts once, its answer reaches the owner's open window and a session; pre-approval gates
enabling; unattended runs never ask and never use chat ALWAYS rules."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx

from jarvis.core.scheduler.preapproval import NotOwner
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of, write_schedule
from tests.support.live_server import Tab, live_server
from tests.support.processes import bash

SEOUL = ZoneInfo("Asia/Seoul")
NINE = int(datetime(2026, 12, 3, 9, 0, tzinfo=SEOUL).timestamp() * 1000)


async def test_a_due_schedule_runs_once_and_reaches_the_open_window(tmp_path: Path) -> None:
    write_schedule(tmp_path, "brief", when="every day 9:00", prompt="아침 요약")
    with live_server(tmp_path, ["요약: 할 일 3개"], scheduler=MANUAL) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        # First sight at 08:59 (no backfill), then the ticks at and after 09:00.
        assert await on_server(server, runtime.tick(NINE - 60_000)) == []
        first = await on_server(server, runtime.tick(NINE + 1000))
        again = await on_server(server, runtime.tick(NINE + 2000))
        assert first == ["sched:brief:2026-12-03T00:00:00+00:00"] and again == []
        message = await tab.next("proactive_message")
        assert message["kind"] == "answer" and "요약: 할 일 3개" in message["text"]
        assert message["status"] == "ok" and message["message_id"].startswith("sched:brief:")
        result = await on_server(server, service.engine.wait(first[0]))
        assert result["session_id"] == message["session_id"]
        async with httpx.AsyncClient(headers=server.headers) as http:
            history = await http.get(f"{server.url}/api/sessions/{result['session_id']}/history")
            listed = (await http.get(f"{server.url}/api/unattended/schedules")).json()
        assert [e["message"]["content"] for e in history.json()][-1] == "요약: 할 일 3개"
        assert listed[0]["id"] == "brief" and listed[0]["last_runs"][0]["status"] == "ok"
        assert len(listed[0]["next_runs"]) == 3
        await tab.close()


async def test_enabling_waits_for_the_owners_preapproval(tmp_path: Path) -> None:
    write_schedule(tmp_path, "cleanup", enabled=False, tools=["bash"], prompt="정리해 줘")
    with live_server(tmp_path, [bash("echo cleaned"), "정리 끝"], scheduler=MANUAL) as server:
        service = unattended_of(server)
        async with httpx.AsyncClient(headers=server.headers) as http:
            url = f"{server.url}/api/unattended"
            refused = await http.post(f"{url}/schedules/cleanup/enabled", json={"enabled": True})
            assert refused.status_code == 409 and refused.json()["missing"] == ["bash"]
            assert "TOOL_APPROVAL_REQUIRED" in refused.json()["detail"]
            window = (await http.get(f"{url}/preapproval?definition=schedule:cleanup")).json()
            assert window["tools"] == [
                {
                    "tool": "bash",
                    "state": "missing",
                    "reason": None,
                    "reason_text": "",
                    "granted_ms": 0,
                }
            ]
            schedule = service.schedule("cleanup")
            try:
                await on_server(server, service.preapprovals.grant(schedule, ["bash"], "bob"))
                raise AssertionError("a non-owner granted")
            except NotOwner:
                pass
            granted = await http.post(
                f"{url}/preapproval", json={"definition": "schedule:cleanup", "tools": ["bash"]}
            )
            assert granted.json()["tools"][0]["state"] == "granted"
            enabled = await http.post(f"{url}/schedules/cleanup/enabled", json={"enabled": True})
            assert enabled.status_code == 200
            run = (await http.post(f"{url}/schedules/cleanup/run")).json()
            result = await on_server(server, service.engine.wait(run["run_id"]))
            audit = (await http.get(f"{server.url}/api/audit?tool=bash")).json()
        assert result["status"] == "ok" and result["answer"] == "정리 끝"
        assert [(a["outcome"], a["reason"]) for a in audit] == [
            ("preapproval_granted", "schedule:cleanup"),
            ("allow", "preapproved"),
        ]


async def test_without_a_grant_the_run_says_it_was_blocked(tmp_path: Path) -> None:
    # A chat ALWAYS rule for this very command does not count when nobody watches.
    (tmp_path / "approvals.yaml").write_text(
        "rules:\n  - {tool: bash, pattern: echo}\n", encoding="utf-8"
    )
    write_schedule(tmp_path, "nightly", prompt="로그를 봐")
    with live_server(
        tmp_path, [bash("echo hi"), "bash 를 쓸 수 없었습니다"], scheduler=MANUAL
    ) as server:
        service = unattended_of(server)
        tab = await Tab.open(server.ws_url(), server.headers)
        await tab.next("session")
        run_id = await on_server(server, service.run_now("nightly", "local"))
        result = await on_server(server, service.engine.wait(run_id))
        message = await tab.next("proactive_message")
        assert result["status"] == "blocked" and "bash: approval_unavailable" in result["reason"]
        assert message["status"] == "blocked" and "막혔습니다" in message["text"]
        await tab.close()


async def test_dangerous_commands_are_blocked_even_when_preapproved(tmp_path: Path) -> None:
    write_schedule(tmp_path, "risky", tools=["bash"], prompt="정리")
    with live_server(
        tmp_path, [bash("sudo rm -rf /tmp/x"), "못 했습니다"], scheduler=MANUAL
    ) as server:
        service = unattended_of(server)
        schedule = service.schedule("risky")
        await on_server(server, service.preapprovals.grant(schedule, ["bash"], "local"))
        run_id = await on_server(server, service.run_now("risky", "local"))
        result = await on_server(server, service.engine.wait(run_id))
        assert result["status"] == "blocked" and "bash: dangerous" in result["reason"]
