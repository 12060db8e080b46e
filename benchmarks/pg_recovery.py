"""How fast Jarvis works again after PostgreSQL comes back, with no restart.

Real `jarvis serve` processes on a throwaway schema; a TCP proxy between a process and the
database is cut for `--outage` seconds and restored (the clock starts at the restore):

1. Turns: a tab on process A (behind the proxy) sends a prompt every 50 ms until one ends with
   `agent_end` — the time until turns work again. Target <= 2 s.
2. Cross-process requests: B is behind the proxy; after the restore, A makes an approval
   request every 200 ms; the time until a tab on B receives one (its LISTEN connection is back,
   or the catch-up replayed it). Target <= 2 s.

    .venv/bin/python benchmarks/pg_recovery.py [--dsn DSN] [--outage 5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.live_server import Tab
from tests.support.postgres import DEFAULT_DSN, scratch_schema
from tests.support.processes import bash, healthy, serve
from tests.support.tcp_proxy import tcp_proxy, through

RATE = {"JARVIS_SECURITY__RATE_LIMIT_PER_MINUTE": "1000000"}


async def turns_again(dsn: str, outage: float) -> float:
    with (
        tempfile.TemporaryDirectory() as tmp,
        tcp_proxy("127.0.0.1", 5432) as proxy,
        serve(Path(tmp) / "a", through(proxy, dsn), ["x"] * 500, env=RATE) as (a, _),
    ):
        await healthy(a)
        tab = await Tab.open(f"ws://{a}/ws")
        await tab.next("session")
        await tab.send(type="prompt", text="before")
        await tab.next("agent_end", timeout=60)
        proxy.cut()
        await asyncio.sleep(outage)
        proxy.restore()
        restored = time.perf_counter()
        while True:
            await tab.send(type="prompt", text="again")
            ended = await tab.next(("agent_end", "agent_error"), timeout=60)
            if ended["type"] == "agent_end":
                return time.perf_counter() - restored
            await asyncio.sleep(0.05)


async def requests_reach_b(dsn: str, outage: float) -> float:
    script = [bash(f"echo {i}") for i in range(500)]
    with (
        tempfile.TemporaryDirectory() as tmp,
        tcp_proxy("127.0.0.1", 5432) as proxy,
        serve(Path(tmp) / "a", dsn, script, env=RATE) as (a, _),
        serve(Path(tmp) / "b", through(proxy, dsn), ["x"], env=RATE) as (b, _),
    ):
        await asyncio.gather(healthy(a), healthy(b))
        session = None
        restored = 0.0
        proxy.cut()
        await asyncio.sleep(outage)
        proxy.restore()
        restored = time.perf_counter()
        while True:  # each attempt: a new session on A, a tab for it on B, a request
            tab_a = await Tab.open(f"ws://{a}/ws")
            session = (await tab_a.next("session"))["session"]["id"]
            try:
                tab_b = await Tab.open(f"ws://{b}/ws?session={session}")
                await tab_b.next("session", timeout=5)
            except Exception:  # B's store is still reconnecting (4503)
                await tab_a.close()
                await asyncio.sleep(0.05)
                continue
            await tab_a.send(type="prompt", text="run it")
            try:
                await tab_b.next("approval_request", timeout=0.2)
                return time.perf_counter() - restored
            except TimeoutError:
                await tab_a.close()
                await tab_b.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsn", default=os.environ.get("JARVIS_TEST_POSTGRES_DSN", DEFAULT_DSN))
    parser.add_argument("--outage", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rows: dict[str, list[float]] = {"turns work again": [], "a tab on B sees requests": []}
    for _ in range(args.rounds):
        async with scratch_schema(args.dsn) as dsn:
            rows["turns work again"].append(await turns_again(dsn, args.outage))
        async with scratch_schema(args.dsn) as dsn:
            rows["a tab on B sees requests"].append(await requests_reach_b(dsn, args.outage))
    print(f"PostgreSQL path cut for {args.outage:g} s, then restored; {args.rounds} rounds")
    print("| after the restore | median s | max s |\n|---|---|---|")
    for label, values in rows.items():
        print(f"| {label} | {statistics.median(values):.2f} | {max(values):.2f} |")


if __name__ == "__main__":
    asyncio.run(main())
