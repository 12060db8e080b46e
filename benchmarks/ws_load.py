"""Many sessions at once over real WebSockets: turn latency and throughput of one server process.

A real `jarvis serve --demo` process (the scripted demo model, the AGENDA judge on, the default
files backend) in a throwaway home; N sessions each run M turns one after another, all sessions
at once. Every `--approval-every`-th turn is `!date +%s%N`: the model asks for `bash`, and a second
connection of the same session (another tab) answers ALLOW. Latency is prompt sent → `agent_end`
received on the first connection; for approval turns also answer → tool start: from the answer
sent (client) and from the answer received (the server's pending store, `ws_load_server.py`)
to the approved process's start (the time `date` printed; one machine, one clock). The client
runs in this process, the server in its own (`--profile FILE`: py-spy samples it; `--cprofile N`:
cProfile runs in it during the load and the N functions with the most own time are printed).

    .venv/bin/python benchmarks/ws_load.py [--sessions 100] [--turns 20] [--approval-every 5]

The tabs connect like the HUD (`/ws?batch=1`: events ready together come as one frame, a JSON
array); `--unbatched` connects as before (one event per frame).

The load starts once the server has settled after start-up (`settled`). Prints p50/p95/p99 turn
latency (ms) for plain and approval turns, answer → tool start, turns/s, the server's CPU per
turn and RSS before and after. Target on a 2-core machine: >= 500 turns/s and p95 <= 100 ms at 100
concurrent sessions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pstats
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")
SERVER = Path(__file__).with_name("ws_load_server.py")  # `jarvis`, noting answers' arrival
STARTED: dict[str, int] = {}  # approval id -> when its approved process started (ns)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_sec(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


class Conn:
    """One WebSocket: events routed to waiters by type."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.queues: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self.reader = asyncio.create_task(self._read())

    def queue(self, kind: str) -> asyncio.Queue[dict[str, Any]]:
        return self.queues.setdefault(kind, asyncio.Queue())

    async def _read(self) -> None:
        async for raw in self.ws:
            data = json.loads(raw)  # an event, or an array of them (`?batch=1`)
            for event in data if isinstance(data, list) else [data]:
                self.queue(event["type"]).put_nowait(event)

    async def next(self, kind: str) -> dict[str, Any]:
        return await asyncio.wait_for(self.queue(kind).get(), 120)

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))


async def one_session(
    url: str,
    headers: dict[str, str],
    turns: int,
    every: int,
    out: dict[str, list[float]],
    batch: str,
) -> None:
    first = Conn(await websockets.connect(f"{url}?{batch}", additional_headers=headers))
    session = (await first.next("session"))["session"]["id"]
    second = Conn(
        await websockets.connect(f"{url}?session={session}&{batch}", additional_headers=headers)
    )
    await second.next("session")
    for turn in range(turns):
        approval = every > 0 and turn % every == every - 1
        started = time.perf_counter()
        # The approved command prints the time its process started (ns, the machine's clock).
        await first.send(type="prompt", text="!date +%s%N" if approval else f"hello {turn}")
        if approval:
            request = await second.next("approval_request")
            answered_ns = time.time_ns()
            await second.send(type="approval", id=request["id"], answer="allow")
            ran = await first.next("tool_execution_end")
            started_ns = int(ran["result_preview"].rsplit("stdout:", 1)[1].split()[0])
            out["answer_to_start"].append((started_ns - answered_ns) / 1e6)
            STARTED[request["id"]] = started_ns
        end = await first.next("agent_end")
        if end.get("ended_by") not in ("answer", "final_tool"):
            raise RuntimeError(f"turn ended by {end.get('ended_by')}: {end}")
        out["approval" if approval else "plain"].append((time.perf_counter() - started) * 1000)
    for conn in (first, second):
        await conn.ws.close()
        conn.reader.cancel()


async def run(
    sessions: int,
    turns: int,
    every: int,
    extra_env: list[str],
    profile: str | None = None,
    cprofile: int = 0,
    batched: bool = True,
) -> None:
    batch = f"batch={int(batched)}"
    token = secrets.token_urlsafe(16)
    port = free_port()
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
        env.update(
            JARVIS_HOME=home,
            JARVIS_WORKSPACE=home,
            JARVIS_WEB__TOKEN=token,
            JARVIS_SECURITY__RATE_LIMIT_PER_MINUTE="100000000",
            WS_LOAD_ANSWERS=str(Path(home) / "answers.json"),
        )
        stats = Path(home) / "server.prof"
        if cprofile:
            env["WS_LOAD_CPROFILE"] = str(stats)
        env.update(item.split("=", 1) for item in extra_env)  # e.g. JARVIS_MEMORY__ENABLED=false
        log = Path(home) / "serve.log"
        with log.open("w") as out:
            server = subprocess.Popen(  # noqa: ASYNC220 (started once, before the load)
                [sys.executable, str(SERVER), "serve", "--demo", "--port", str(port)],
                env=env,
                stdout=out,
                stderr=out,
            )
        try:
            await wait_healthy(port)
            await settled(server.pid)
            headers = {"Authorization": f"Bearer {token}", "Origin": f"http://127.0.0.1:{port}"}
            before, cpu_before = rss_mb(server.pid), cpu_sec(server.pid)
            latencies: dict[str, list[float]] = {"plain": [], "approval": [], "answer_to_start": []}
            spy = start_profile(server.pid, profile) if profile else None
            if cprofile:
                server.send_signal(signal.SIGUSR1)
            started, client_cpu = time.perf_counter(), time.process_time()
            await asyncio.gather(
                *(
                    one_session(
                        f"ws://127.0.0.1:{port}/ws", headers, turns, every, latencies, batch
                    )
                    for _ in range(sessions)
                )
            )
            elapsed = time.perf_counter() - started
            client_cpu = time.process_time() - client_cpu
            after, cpu = rss_mb(server.pid), cpu_sec(server.pid) - cpu_before
            if spy is not None:
                spy.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
                spy.wait(60)
            received = answers_received(server, Path(home) / "answers.json")
            if cprofile:
                print_profile(stats, cprofile)
        finally:
            server.terminate()
            server.wait(10)
            if os.environ.get("WS_LOAD_LOG"):
                shutil.copy(log, os.environ["WS_LOAD_LOG"])
    starts = latencies.pop("answer_to_start")
    total = sum(len(v) for v in latencies.values())
    print(f"{sessions} sessions x {turns} turns, every {every}th with an approval answered", end="")
    print(", events ready together in one frame" if batched else ", one event per frame")
    print("| turns | n | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|---|")
    for kind, values in (("all", latencies["plain"] + latencies["approval"]), *latencies.items()):
        if values:
            cells = (statistics.median(values), pct(values, 95), pct(values, 99))
            print(f"| {kind} | {len(values)} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")
    on_server = [(STARTED[i] - at) / 1e6 for i, at in received.items() if i in STARTED]
    for kind, values in (
        ("answer sent → tool process start", starts),
        ("answer received by the server → tool process start", on_server),
    ):
        if values:
            cells = (statistics.median(values), pct(values, 95), pct(values, 99))
            print(f"| {kind} | {len(values)} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")
    print(f"throughput: {total / elapsed:.0f} turns/s ({total} turns in {elapsed:.1f} s)")
    print(f"server CPU: {cpu * 1000 / total:.2f} ms per turn ({cpu:.1f} s in all)")
    print(f"server RSS: {before:.0f} MB before, {after:.0f} MB after")
    print(f"load generator CPU: {client_cpu:.1f} s in {elapsed:.1f} s (it shares the machine)")


def answers_received(server: subprocess.Popen[bytes], path: Path) -> dict[str, int]:
    """When each approval answer reached the server (ns by request id; `ws_load_server.py`)."""
    server.send_signal(signal.SIGUSR2)
    deadline = time.monotonic() + 30
    while not path.exists() and time.monotonic() < deadline:  # the load is over: block
        time.sleep(0.05)
    return {key: int(value) for key, value in json.loads(path.read_text()).items()}


def print_profile(path: Path, top: int) -> None:
    """The server's functions with the most own time during the load (cProfile's own cost
    inflates every figure; the shares are what to read)."""
    kept = Path(tempfile.gettempdir()) / "ws_load_server.prof"  # for pstats afterwards
    shutil.copy(path, kept)
    print(f"cProfile stats of the server: {kept}")
    stats = pstats.Stats(str(path))
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def start_profile(pid: int, path: str) -> subprocess.Popen[bytes]:
    """py-spy sampling the server during the load (collapsed stacks, for flame graphs)."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    command = [spy, "record", "--pid", str(pid), "--output", path, "--format", "raw"]
    return subprocess.Popen([*command, "--rate", "250"])


async def settled(pid: int, limit_sec: float = 30.0) -> None:
    """Until the server's start-up work after health (the engine's import and launch, first
    ticks) is done: under 5 % of a core over half a second. Otherwise it counts as turns' CPU."""
    deadline = time.perf_counter() + limit_sec
    while time.perf_counter() < deadline:
        before = cpu_sec(pid)
        await asyncio.sleep(0.5)
        if cpu_sec(pid) - before < 0.025:
            return


async def wait_healthy(port: int) -> None:
    async with httpx.AsyncClient() as http, asyncio.timeout(300):  # a loaded machine
        while True:
            try:
                if (await http.get(f"http://127.0.0.1:{port}/api/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--approval-every", type=int, default=5)
    parser.add_argument(
        "--env", action="append", default=[], help="KEY=VALUE for the server (repeatable)"
    )
    parser.add_argument("--profile", help="write py-spy's collapsed stacks of the server here")
    parser.add_argument(
        "--cprofile", type=int, default=0, metavar="N", help="print the server's top N functions"
    )
    parser.add_argument(
        "--unbatched", action="store_true", help="one event per frame (as before `?batch=1`)"
    )
    args = parser.parse_args()
    asyncio.run(
        run(
            args.sessions,
            args.turns,
            args.approval_every,
            args.env,
            args.profile,
            args.cprofile,
            not args.unbatched,
        )
    )


if __name__ == "__main__":
    main()
