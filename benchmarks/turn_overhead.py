"""Framework overhead per turn (seed 004 "요청 한 번에 모델 밖에서 쓰는 시간").

The real `AgentSession.prompt` with an instantly answering scripted model, one event subscriber
that serialises every event (as the Web HUD does), and each stage wrapped with perf_counter.
3 sessions x 200 turns (a warm-up session first, discarded); medians of turns 1-20 and 181-200.
Conditions: JSONL + memory on, JSONL + memory off, in-memory store + memory on, JSONL + the
SQLite memory store (`memory.db`, the files backend's default), JSONL + memory on with the thought
router on (engine off: issue 26's "within noise" check); then one
2,000-turn JSONL + memory session. Prints a markdown table.

    uv run python benchmarks/turn_overhead.py [--turns 200] [--long 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import jarvis.core.session as session_module
from jarvis.agent_layer.loop import AgentLoopConfig
from jarvis.agent_layer.sessions import JsonlSessionStore, MemorySessionStore, SessionInfo
from jarvis.agent_layer.sessions.base import SessionStore
from jarvis.agent_layer.sessions.pg_store import PostgresSessionStore
from jarvis.agent_layer.thought import load_weights
from jarvis.agent_layer.tools import NoTools
from jarvis.common.clock import SystemClock
from jarvis.core.session import AgentSession, SessionSetup
from jarvis.core.thinking import TurnThinking
from jarvis.memory import MemoryService, MemorySettings
from jarvis.memory.pg_store import PostgresItemStore
from jarvis.memory.pg_working import PostgresWorkingStore
from jarvis.memory.sqlite_store import SqliteItemStore
from jarvis.model_layer import FauxProvider, FauxResponse

ROOT = str(Path(__file__).resolve().parents[1])
STAGES = ["history_read", "history_write", "memory_recall", "memory_record", "events", "security"]


class Timings:
    def __init__(self) -> None:
        self.turn: dict[str, float] = defaultdict(float)

    def wrap(self, stage: str, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                self.turn[stage] += time.perf_counter() - start

        return timed

    def wrap_sync(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.turn[stage] += time.perf_counter() - start

        return timed


def answer(ctx: Any) -> FauxResponse:
    return FauxResponse(text="Sure — here is a short answer to that question.", chunk=8)


async def run_session(
    store: SessionStore,
    memory: MemoryService,
    turns: int,
    timings: Timings,
    sid: str,
    router: bool = False,
) -> list[dict[str, float]]:
    store.recent = timings.wrap("history_read", store.recent)  # type: ignore[method-assign]
    store.append = timings.wrap("history_write", store.append)  # type: ignore[method-assign]
    memory.recall = timings.wrap("memory_recall", memory.recall)  # type: ignore[method-assign]
    memory.record_episode = timings.wrap(  # type: ignore[method-assign]
        "memory_record", memory.record_episode
    )
    setup = SessionSetup(
        agent_id="main",
        agent_name="JARVIS",
        provider=FauxProvider(script=answer),
        model="faux",
        system_prompt=lambda tools: "You are JARVIS.",
        tools=NoTools,
        store=store,
        memory=memory,
        loop_config=AgentLoopConfig(),
        input_max_length=10_000,
        clock=SystemClock(),
        thinking=TurnThinking(load_weights(), mode="off") if router else None,
    )
    info = SessionInfo(id=sid)
    await store.create(info)
    session = AgentSession(setup, info)
    session.subscribe(timings.wrap_sync("events", lambda e: e.model_dump_json()))
    rows = []
    for n in range(1, turns + 1):
        timings.turn.clear()
        start, cpu = time.perf_counter(), time.process_time()
        await session.prompt(f"question number {n}: what should I do about the report?")
        row = {
            "total": time.perf_counter() - start,
            "cpu": time.process_time() - cpu,
            **{s: timings.turn[s] for s in STAGES},
        }
        rows.append(row)
    return rows


def median_ms(rows: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in rows) * 1000


async def make_store(kind: str, root: Path, dsn: str | None) -> SessionStore:
    if kind == "postgres":
        assert dsn is not None
        return await PostgresSessionStore.connect(dsn)
    return JsonlSessionStore(root) if kind in ("jsonl", "sqlite") else MemorySessionStore()


async def make_memory(kind: str, memory_on: bool, dsn: str | None, root: Path) -> MemoryService:
    """On PostgreSQL, long-term and working memory live there too (as a deployment has them);
    `sqlite` is the files backend's durable long-term store."""
    settings = MemorySettings(enabled=memory_on)
    if kind == "sqlite":
        return MemoryService(settings, SqliteItemStore(root / "memory.db"))
    if kind != "postgres":
        return MemoryService(settings)
    assert dsn is not None
    return MemoryService(
        settings, await PostgresItemStore.connect(dsn), await PostgresWorkingStore.connect(dsn)
    )


async def condition(
    label: str,
    kind: str,
    memory_on: bool,
    turns: int,
    sessions: int,
    root: Path,
    dsn: str | None = None,
    router: bool = False,
) -> list[tuple[str, str, list[dict[str, float]]]]:
    per_turn: list[list[dict[str, float]]] = []
    for index in range(sessions + 1):  # the first session is a warm-up
        store = await make_store(kind, root / label.replace(" ", "_") / f"{index}-s", dsn)
        folder = root / label.replace(" ", "_") / str(index)
        memory = await make_memory(kind, memory_on, dsn, folder)
        sid = f"s{index}-{time.time_ns()}"
        rows = await run_session(store, memory, turns, Timings(), sid, router)
        await store.aclose()
        await memory.store.aclose()
        await memory.working.aclose()
        if index:
            per_turn.append(rows)
    merged = [
        {k: statistics.median(s[i][k] for s in per_turn) for k in per_turn[0][i]}
        for i in range(turns)
    ]
    early, late = merged[:20], merged[-20:]
    return [(label, "1–20", early), (label, f"{turns - 19}–{turns}", late)]


@contextlib.asynccontextmanager
async def scratch(dsn: str | None) -> AsyncIterator[str | None]:
    """A fresh schema, so rows from earlier runs don't grow what each turn reads."""
    if dsn is None:
        yield None
        return
    sys.path.insert(0, ROOT)
    from tests.support.postgres import scratch_schema

    async with scratch_schema(dsn, "jarvis_bench") as fresh:
        yield fresh


def table(rows: list[tuple[str, str, list[dict[str, float]]]]) -> str:
    head = (
        "| condition | turns | total ms | CPU ms | history read | history write | memory recall | "
        "memory record | events | security |\n|---|---|---|---|---|---|---|---|---|---|"
    )
    lines = [head]
    for label, span, data in rows:
        cells = [f"{median_ms(data, k):.3f}" for k in ("total", "cpu", *STAGES)]
        lines.append(f"| {label} | {span} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--long", type=int, default=2000)
    parser.add_argument(
        "--postgres", metavar="DSN", help="also measure sessions and memory on PostgreSQL"
    )
    args = parser.parse_args()
    # Security is the input-validation stage of the pipeline.
    timings_security: list[float] = []
    original = session_module.validate_input

    def timed_validation(*a: Any, **k: Any) -> Any:
        start = time.perf_counter()
        result = original(*a, **k)
        timings_security.append(time.perf_counter() - start)
        return result

    session_module.validate_input = timed_validation  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rows = []
        conditions = [
            ("JSONL, memory on", "jsonl", True),
            ("JSONL, memory off", "jsonl", False),
            ("memory store, memory on", "memory", True),
            ("JSONL, SQLite memory on", "sqlite", True),
            ("JSONL, memory on, router on", "jsonl", True),
        ]
        if args.postgres:
            conditions.append(("PostgreSQL, memory on", "postgres", True))
        for label, kind, memory_on in conditions:
            timings_security.clear()
            async with scratch(args.postgres if kind == "postgres" else None) as dsn:
                result = await condition(
                    label, kind, memory_on, args.turns, args.sessions, root, dsn, "router" in label
                )
            security = statistics.median(timings_security)
            for _, _, data in result:
                for row in data:
                    row["security"] = security
            rows.extend(result)
        if args.long:
            long = await condition("JSONL, memory on (long)", "jsonl", True, args.long, 1, root)
            for _, _, data in long:
                for row in data:
                    row["security"] = statistics.median(timings_security)
            rows.extend(long)
    print(table(rows))
    by = {(label, span): median_ms(data, "total") for label, span, data in rows}
    early = by[("JSONL, memory on", "1–20")]
    late = by[("JSONL, memory on", f"{args.turns - 19}–{args.turns}")]
    print(
        f"\nJSONL + memory on: turns {args.turns - 19}-{args.turns} / 1-20 = {late / early:.2f}x "
        f"(target <= 1.5x), late median {late:.3f} ms (target < 1 ms)"
    )
    sqlite_early = by[("JSONL, SQLite memory on", "1–20")]
    sqlite_late = by[("JSONL, SQLite memory on", f"{args.turns - 19}–{args.turns}")]
    print(
        f"JSONL + SQLite memory: turns {args.turns - 19}-{args.turns} / 1-20 = "
        f"{sqlite_late / sqlite_early:.2f}x (target <= 1.5x), late median {sqlite_late:.3f} ms"
    )
    span = f"{args.turns - 19}–{args.turns}"
    routed = by[("JSONL, memory on, router on", span)]
    print(
        f"JSONL + memory on, router on (engine off): late median {routed:.3f} ms vs "
        f"{late:.3f} ms without ({routed - late:+.3f} ms)"
    )
    if args.long:
        long_late = by[("JSONL, memory on (long)", f"{args.long - 19}–{args.long}")]
        long_early = by[("JSONL, memory on (long)", "1–20")]
        print(
            f"2,000-turn session: turns {args.long - 19}-{args.long} / 1-20 = "
            f"{long_late / long_early:.2f}x, late median {long_late:.3f} ms"
        )


if __name__ == "__main__":
    asyncio.run(main())
