"""Real `jarvis serve` processes on one PostgreSQL: a due schedule runs once whichever process
ticks first, a reminder reaches a tab on the other process once, a closed loop never reminds,
and a process killed mid-run leaves the run marked failed on restart, not run again."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from tests.integration.unattended.helpers import write_schedule
from tests.integration.unattended.pg_helpers import FAST_TICKS, add_loop, close_loop, runs, until
from tests.support.hang import HANG_GUARD_SEC
from tests.support.live_server import Tab
from tests.support.processes import healthy, hud_headers, serve

pytestmark = pytest.mark.postgres


async def _one_proactive_then_probe(tab: Tab) -> list[dict[str, object]]:
    """Every proactive message up to the answer of a probe prompt sent now."""
    await tab.send(type="prompt", text="probe")
    events = await tab.drain_until("agent_end")
    return [e for e in events if e["type"] == "proactive_message"]


async def test_a_due_schedule_runs_once_across_two_processes(tmp_path: Path, dsn: str) -> None:
    home = tmp_path / "shared"  # both processes read the same schedules/ folder
    write_schedule(home, "tick", when="every 1 minutes", prompt="상태 점검")
    script = ["점검 완료"] * 3
    with (
        serve(home, dsn, script, FAST_TICKS) as (a, _),
        serve(home, dsn, script, FAST_TICKS) as (
            b,
            _,
        ),
    ):
        await asyncio.gather(healthy(a), healthy(b))
        tab = await Tab.open(f"ws://{b}/ws")
        await tab.next("session")
        # The next minute boundary: whichever process ticks first starts it, the other joins.
        message = await tab.next("proactive_message")
        write_schedule(home, "tick", when="every 1 minutes", prompt="상태 점검", enabled=False)
        assert message["status"] == "ok" and "점검 완료" in str(message["text"])
        done = await until(lambda: _finished(dsn, "sched:tick:"))
        seen = [message, *await _one_proactive_then_probe(tab)]
        started = await runs(dsn, "sched:tick:")
        async with httpx.AsyncClient(headers=hud_headers()) as http:
            sessions = (await http.get(f"http://{a}/api/sessions")).json()
        await tab.close()
    ran = [s for s in sessions if s["title"] == "⏰ tick"]
    assert len(done) == len(started) == len(ran) == len(seen)
    assert len(started) in (1, 2)  # a second minute may have begun before the file changed


async def _finished(dsn: str, prefix: str) -> list[object] | None:
    found = await runs(dsn, prefix)
    return found if found and all(status == "SUCCESS" for _, status, _, _ in found) else None


async def test_a_reminder_reaches_a_tab_on_the_other_process_once(tmp_path: Path, dsn: str) -> None:
    home = tmp_path / "shared"
    env = {**FAST_TICKS, "JARVIS_TIMEZONE": "Asia/Seoul"}
    with serve(home, dsn, ["ok"] * 3, env) as (a, _), serve(home, dsn, ["ok"] * 3, env) as (b, _):
        await asyncio.gather(healthy(a), healthy(b))
        tab = await Tab.open(f"ws://{b}/ws")
        await tab.next("session")
        now = int(time.time() * 1000)
        # Open while its due time is half an hour off, so however slow this machine is, it is
        # closed before it is due; its due time then comes while it is closed: never reminds.
        await add_loop(dsn, "closed-loop", "취소된 약속", now + 30 * 60_000, now)
        await close_loop(dsn, "closed-loop", due_ms=now)
        later_ms = int(time.time() * 1000)  # after the closed loop's due time
        await add_loop(dsn, "report-loop", "분기 보고서 보내기", later_ms, later_ms)
        message = await tab.next("proactive_message")
        assert message["kind"] == "proactive" and "분기 보고서 보내기" in str(message["text"])
        assert message["message_id"] == "remind:report-loop:0"
        await until(lambda: _finished(dsn, "remind:"))
        later = await _one_proactive_then_probe(tab)
        await tab.close()
    assert later == []
    assert [r[0] for r in await runs(dsn, "remind:")] == ["remind:report-loop:0"]


async def test_a_process_killed_mid_run_is_marked_failed_on_restart(
    tmp_path: Path, dsn: str
) -> None:
    home = tmp_path / "a"
    write_schedule(home, "slow", prompt="오래 걸리는 일")
    env = {**FAST_TICKS, "JARVIS_SCHEDULER__EXECUTOR_ID": "host-a"}
    slow = [{"text": "FIRST CALL", "delay_sec": 120}]
    with serve(home, dsn, slow, env) as (a, process):
        await healthy(a)
        async with httpx.AsyncClient(headers=hud_headers()) as http:
            run = (await http.post(f"http://{a}/api/unattended/schedules/slow/run")).json()

            async def started() -> list[object]:
                listed = (await http.get(f"http://{a}/api/sessions")).json()
                return [s for s in listed if s["title"] == "⏰ slow"]

            (session,) = await until(started)
        process.kill()  # kill -9 while the model is answering
        process.wait(HANG_GUARD_SEC)
    assert [r[1] for r in await runs(dsn, run["run_id"])] == ["PENDING"]
    with serve(home, dsn, ["SECOND CALL"], env) as (again, _):
        await healthy(again)
        ((_, status, _, executor),) = await until(lambda: _finished(dsn, run["run_id"]))
        async with httpx.AsyncClient(headers=hud_headers()) as http:
            url = f"http://{again}/api/sessions/{session['id']}/history"
            history = (await http.get(url)).json()
            listed = (await http.get(f"http://{again}/api/unattended/schedules")).json()
    assert (status, executor) == ("SUCCESS", "host-a")
    (last,) = listed[0]["last_runs"]
    assert (last["id"], last["status"], last["reason"]) == (run["run_id"], "failed", "interrupted")
    # Not run again: the model was not asked a second time.
    assert [e["message"]["content"] for e in history] == ["오래 걸리는 일"]
