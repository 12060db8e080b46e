"""Approval wake-up and turn latency.

1. Answer → tool start, in one process: the real pending store, approval service, sandbox, gate
   and tool executor; a channel that records delivery; the clock starts when the answer is
   submitted and stops when the tool's `execute` begins. 300 approvals. Target p95 <= 5 ms.
2. Turn latency with 50 concurrent WebSocket sessions against a real server (uvicorn) on the
   scripted model: prompt sent → `agent_end` received, 5 turns per session.

    uv run python benchmarks/approval_latency.py
    uv run python benchmarks/approval_latency.py --postgres postgresql://postgres@127.0.0.1/test
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.common.clock import SystemClock
from jarvis.core.approvals.audit import AuditLog
from jarvis.core.approvals.channel import ApprovalChannel, ChannelRegistry
from jarvis.core.approvals.pending import MemoryPendingStore, Status
from jarvis.core.approvals.request import ApprovalRequest
from jarvis.core.approvals.service import ApprovalService
from jarvis.core.config import SecuritySettings
from jarvis.core.policy.gate import Gate
from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.sandbox import Sandbox
from jarvis.core.tools.base import Tool, ToolEnv
from jarvis.core.tools.executor import GatedTools
from jarvis.core.tools.registry import ToolRegistry
from jarvis.model_layer import ToolCall

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


class Recorder(ApprovalChannel):
    def __init__(self) -> None:
        self.delivered: asyncio.Queue[ApprovalRequest] = asyncio.Queue()

    async def deliver(self, request: ApprovalRequest) -> bool:
        self.delivered.put_nowait(request)
        return True

    async def resolved(self, request: ApprovalRequest, status: Status) -> None:
        pass


class StampTool(Tool):
    name = "bash"
    description = "records when it starts"

    def __init__(self) -> None:
        self.started = 0.0

    async def execute(self, call_id: str, args: dict[str, Any], env: ToolEnv) -> ToolResult:
        self.started = time.perf_counter()
        return ToolResult(content="ok")


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1]


async def wake_up(rounds: int = 300) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        pending, channels, channel = MemoryPendingStore(), ChannelRegistry(), Recorder()
        channels.attach("s", channel)
        sandbox = Sandbox(
            settings=SecuritySettings(),
            rules=RuleStore(Path(tmp)),
            approvals=ApprovalService(pending, channels),
            workspace=Path(tmp),
            clock=SystemClock(),
        )
        registry = ToolRegistry()
        tool = StampTool()
        registry.register(tool)
        tools = GatedTools(registry, Path(tmp), Gate(sandbox, AuditLog()))
        latencies = []
        for i in range(rounds):
            ctx = ToolCallContext("s", "main", i, asyncio.Event())
            call = ToolCall(id=str(i), name="bash", arguments={"command": f"echo {i}"})
            running = asyncio.create_task(tools.execute(call, ctx))
            request = await channel.delivered.get()
            start = time.perf_counter()
            await pending.answer(request.id, "local", "allow")
            await running
            latencies.append((tool.started - start) * 1000)
        return latencies


async def concurrent_turns(sessions: int = 50, turns: int = 5) -> list[float]:
    from tests.support.live_server import live_server

    with (
        tempfile.TemporaryDirectory() as tmp,
        live_server(
            Path(tmp),
            ["answer"] * (sessions * turns + 10),
            security={"rate_limit_per_minute": 100_000},
        ) as server,
    ):

        async def one_session() -> list[float]:
            async with websockets.connect(server.ws_url()) as ws:
                await ws.recv()  # the session event
                times = []
                for n in range(turns):
                    start = time.perf_counter()
                    await ws.send(json.dumps({"type": "prompt", "text": f"hello {n}"}))
                    while json.loads(await ws.recv())["type"] != "agent_end":
                        pass
                    times.append((time.perf_counter() - start) * 1000)
                return times

        results = await asyncio.gather(*(one_session() for _ in range(sessions)))
    return [t for times in results for t in times]


async def across_pools(dsn: str, rounds: int = 200) -> list[float]:
    """Answer through one pool (process B), wake the waiter on another (process A)."""
    from jarvis.core.approvals.pg_pending import PostgresPendingStore

    a, b = await PostgresPendingStore.connect(dsn), await PostgresPendingStore.connect(dsn)
    latencies = []
    try:
        for i in range(rounds):
            request = ApprovalRequest(
                id=f"bench-{time.time_ns()}-{i}", session_id="bench", agent_id="main",
                user_id="local", turn=1, tool_call_id="c", tool="bash", source="builtin",
                args=[], options=["allow", "deny"], created_ms=0, expires_ms=1)
            await a.create(request)
            waiter = asyncio.create_task(a.wait(request.id, 10, asyncio.Event()))
            await asyncio.sleep(0.005)
            start = time.perf_counter()
            await b.answer(request.id, "local", "allow")
            await waiter
            latencies.append((time.perf_counter() - start) * 1000)
    finally:
        await a.aclose()
        await b.aclose()
    return latencies


async def main() -> None:
    if "--postgres" in sys.argv:
        dsn = sys.argv[sys.argv.index("--postgres") + 1]
        pg = await across_pools(dsn)
        print("| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|")
        print(f"| answer (pool B) → waiter wakes (pool A), PostgreSQL NOTIFY | {len(pg)} | "
              f"{statistics.median(pg):.2f} | {pct(pg, 95):.2f} | {max(pg):.2f} |")
        return
    wake = await wake_up()
    turns = await concurrent_turns()
    print("| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|")
    print(
        f"| answer → tool start (in-process) | {len(wake)} | {statistics.median(wake):.3f} | "
        f"{pct(wake, 95):.3f} | {max(wake):.3f} |"
    )
    print(
        f"| turn, 50 concurrent WebSocket sessions (scripted model) | {len(turns)} | "
        f"{statistics.median(turns):.2f} | {pct(turns, 95):.2f} | {max(turns):.2f} |"
    )
    print(f"\nanswer → tool start p95 {pct(wake, 95):.3f} ms (target <= 5 ms)")


if __name__ == "__main__":
    asyncio.run(main())
