"""Unattended work across processes on one PostgreSQL (the durable engine, DBOS).

1. Exactly once: 3 worker processes share one database and one `schedules/` folder holding an
   "every 1 minutes" schedule. Each worker runs the real assembly and the real ticker, with an
   injected clock that runs `--scale` times faster than the wall clock (default 600: a simulated
   minute every 0.1 s) over a simulated window holding exactly 50 due times. Counted: workflow
   rows per due time, sessions the runs wrote (each run writes one), and the `proactive_message`
   notifications seen by a listener in this process, per run id. Every due time must have
   exactly one of each: 50 runs, not 49 or 51.
2. Reminder delay: the same 3 workers on the wall clock (the default 1 s tick); `--loops` open
   loops (default 30) with due times 0.2 s apart; the delay is the time from a loop's due time to
   its `proactive_message` arriving here (LISTEN), p50 / p95 / max, and each loop reminded once.

    uv run python benchmarks/unattended.py [--dsn DSN] [--scale 600] [--loops 30]

Runs in a throwaway schema of the DSN ($JARVIS_TEST_POSTGRES_DSN, else
postgresql://postgres@127.0.0.1:5432/test), dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

DUE_TIMES = 50
SIM_START_MS = 1_796_083_230_000  # 2026-12-01T00:00:30Z: the window holds due times :01 .. :50
SIM_END_MS = SIM_START_MS + DUE_TIMES * 60_000


class ScaledClock:
    """The injected clock: simulated time runs `scale` times faster from `go_ms` on."""

    def __init__(self, go_ms: int, scale: float) -> None:
        self.go_ms, self.scale = go_ms, scale

    def now_ms(self) -> int:
        elapsed = max(0, int(time.time() * 1000) - self.go_ms)
        return min(SIM_START_MS + int(elapsed * self.scale), SIM_END_MS)


def channel_for(dsn: str) -> str:
    from jarvis.app.unattended.notify import channel_for as channel

    return channel(dsn)


async def worker(args: argparse.Namespace) -> None:
    from jarvis.app.infra import build_app
    from jarvis.app.session_builder import SessionBuilder
    from jarvis.app.settings import Settings
    from jarvis.app.unattended.service import Unattended
    from jarvis.common.clock import Clock

    home = Path(args.home)
    go_file, stop_file = home / "go", home / "stop"
    scaled = args.phase == "schedules"
    settings = Settings(
        home=home,
        workspace=home,
        model={"provider": "faux", "model": "faux", "script": str(home / "script.json")},
        openloop={"enabled": False},
        storage={"backend": "postgres", "postgres_dsn": args.dsn},
        scheduler={
            "tick_sec": 0.05 if scaled else 1.0,
            "missed_grace_sec": 10**7,  # a late tick under load is not a missed run here
            "executor_id": f"bench-{args.worker}",
            "remind_before_sec": [0],
            "reminders": not scaled,
        },
    )
    clock: Any = Clock()
    app = build_app(settings, clock=clock)
    service = Unattended(app, {"main": SessionBuilder(app)})
    await app.start()
    await service.start(tick=False)
    print("ready", flush=True)
    while not go_file.exists():  # noqa: ASYNC110 - the parent process writes the file
        await asyncio.sleep(0.02)
    if scaled:
        app.clock = ScaledClock(int(go_file.read_text()), args.scale)
    assert service.runtime is not None
    service.runtime.start_ticking()
    while not stop_file.exists():  # noqa: ASYNC110 - the parent process writes the file
        await asyncio.sleep(0.05)
    await service.aclose()
    await app.aclose()


def spawn(args: argparse.Namespace, home: Path, phase: str) -> list[subprocess.Popen[str]]:
    procs = []
    for index in range(3):
        command = [sys.executable, __file__, "--worker", str(index), "--home", str(home)]
        command += ["--dsn", args.dsn, "--phase", phase, "--scale", str(args.scale)]
        env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
        procs.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env))
    for proc in procs:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        if line != "ready":
            raise SystemExit(f"worker did not start: {line!r}")
    return procs


def stop(home: Path, procs: list[subprocess.Popen[str]]) -> None:
    (home / "stop").write_text("1")
    for proc in procs:
        proc.wait(60)


class Listener:
    """Every proactive message any process publishes, with its arrival time here."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.seen: list[tuple[int, dict[str, Any]]] = []
        self.ready = asyncio.Event()

    async def run(self) -> None:
        async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
            await conn.execute(f"LISTEN {channel_for(self.dsn)}")
            self.ready.set()
            async for note in conn.notifies():
                self.seen.append((int(time.time() * 1000), json.loads(note.payload)["event"]))


async def count(dsn: str, sql: str, *params: object) -> int:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        row = await (await conn.execute(sql, params)).fetchone()
        return int(row[0]) if row else 0


async def schedules_phase(args: argparse.Namespace, home: Path) -> dict[str, Any]:
    (home / "schedules").mkdir(parents=True, exist_ok=True)
    (home / "schedules" / "bench.yaml").write_text(
        "when: every 1 minutes\nprompt: 점검\nmissed: run_once\n", encoding="utf-8"
    )
    listener = Listener(args.dsn)
    listening = asyncio.create_task(listener.run())
    await listener.ready.wait()
    procs = await asyncio.to_thread(spawn, args, home, "schedules")
    started = time.monotonic()
    # The clock starts a moment from now, so every worker's first tick sees the window's start.
    (home / "go").write_text(str(int(time.time() * 1000) + 2000))
    done_sql = "SELECT count(*) FROM workflow_status WHERE workflow_uuid LIKE %s "
    while await count(args.dsn, done_sql + "AND status = 'SUCCESS'", "sched:bench:%") < DUE_TIMES:
        await asyncio.sleep(0.2)
        if time.monotonic() - started > 600:
            break
    await asyncio.sleep(1.0)  # a 51st run, if the engine let one through, would show now
    stop(home, procs)
    listening.cancel()
    every_row = "SELECT count(*) FROM workflow_status WHERE workflow_uuid LIKE %s"
    rows = await count(args.dsn, every_row, "sched:bench:%")
    sessions = await count(
        args.dsn, "SELECT count(*) FROM jarvis_sessions WHERE title = %s", "⏰ bench"
    )
    per_run = Counter(e["message_id"] for _, e in listener.seen)
    executors = await _executors(args.dsn)
    return {
        "due_times": DUE_TIMES,
        "workflow_rows": rows,
        "runs_executed": sessions,
        "messages": sum(per_run.values()),
        "distinct_runs_messaged": len(per_run),
        "max_messages_per_run": max(per_run.values(), default=0),
        "runs_per_process": executors,
        "exactly_once": rows == sessions == len(per_run) == sum(per_run.values()) == DUE_TIMES,
    }


async def _executors(dsn: str) -> dict[str, int]:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        cursor = await conn.execute(
            "SELECT executor_id, count(*) FROM workflow_status WHERE workflow_uuid LIKE %s "
            "GROUP BY executor_id ORDER BY executor_id",
            ("sched:bench:%",),
        )
        return {str(e): int(n) for e, n in await cursor.fetchall()}


async def reminders_phase(args: argparse.Namespace, home: Path) -> dict[str, Any]:
    for name in ("go", "stop", "schedules/bench.yaml"):
        (home / name).unlink(missing_ok=True)
    listener = Listener(args.dsn)
    listening = asyncio.create_task(listener.run())
    await listener.ready.wait()
    procs = await asyncio.to_thread(spawn, args, home, "reminders")
    now = int(time.time() * 1000)
    dues: dict[str, int] = {}
    async with await psycopg.AsyncConnection.connect(args.dsn, autocommit=True) as conn:
        for index in range(args.loops):
            loop_id = f"bench-{index}"
            due = now + 3000 + index * 200
            dues[f"remind:{loop_id}:0"] = due
            data = {
                "id": loop_id,
                "agent_id": "main",
                "user_id": "local",
                "session_id": "s",
                "description": f"약속 {index}",
                "due_ms": due,
                "status": "open",
                "created_ms": now,
                "updated_ms": now,
            }
            await conn.execute(
                "INSERT INTO jarvis_open_loops (id, agent_id, user_id, session_id, status, "
                "updated_ms, data) VALUES (%s, 'main', 'local', 's', 'open', %s, %s)",
                (loop_id, now, Jsonb(data)),
            )
    (home / "go").write_text("0")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        got = {e["message_id"] for _, e in listener.seen}
        if set(dues) <= got:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.5)  # a duplicate, if any, would arrive within a tick
    stop(home, procs)
    listening.cancel()
    first: dict[str, int] = {}
    per_loop: Counter[str] = Counter()
    for arrived, event in listener.seen:
        per_loop[event["message_id"]] += 1
        first.setdefault(event["message_id"], arrived)
    delays = sorted(first[k] - dues[k] for k in dues if k in first)
    q = statistics.quantiles(delays, n=20) if len(delays) >= 2 else delays * 19
    return {
        "loops": args.loops,
        "messages": len(listener.seen),
        "reminded": len(first),
        "max_reminders_per_loop": max(per_loop.values(), default=0),
        "delay_ms_p50": int(statistics.median(delays)) if delays else None,
        "delay_ms_p95": int(q[18]) if delays else None,
        "delay_ms_max": delays[-1] if delays else None,
        "tick_sec": 1.0,
    }


async def main(args: argparse.Namespace) -> None:
    base = args.dsn
    schema = f"bench_unattended_{uuid.uuid4().hex[:8]}"
    async with await psycopg.AsyncConnection.connect(base, autocommit=True) as admin:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
    args.dsn = f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp)
            (home / "script.json").write_text(json.dumps(["완료"] * 400), encoding="utf-8")
            result = {"exactly_once": await schedules_phase(args, home)}
            print(json.dumps(result, ensure_ascii=False), file=sys.stderr, flush=True)
            result["reminders"] = await reminders_phase(args, home)
        print(json.dumps(result, ensure_ascii=False, indent=2))
    finally:
        async with await psycopg.AsyncConnection.connect(base, autocommit=True) as admin:
            await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dsn",
        default=os.environ.get(
            "JARVIS_TEST_POSTGRES_DSN", "postgresql://postgres@127.0.0.1:5432/test"
        ),
    )
    parser.add_argument("--scale", type=float, default=600.0)
    parser.add_argument("--loops", type=int, default=30)
    parser.add_argument("--worker", type=int, default=None)
    parser.add_argument("--home", default="")
    parser.add_argument("--phase", default="schedules")
    parsed = parser.parse_args()
    if parsed.worker is not None:
        asyncio.run(worker(parsed))
    else:
        asyncio.run(main(parsed))
