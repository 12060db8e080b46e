"""Does anything stall the server's event loop, and does the process's memory stay flat?

A real `jarvis serve --demo` (files backend) in a temp home; `/api/health` is asked in a loop
while one slow thing happens, and the worst health latency is printed (target: under 100 ms).

1. history of a 50 MB session (50,000 entries of ~1 KB): the history request's time and the
   worst health latency while it runs;
2. the session list with a session ending in one 50 MB line (cold: first listing);
3. a user tool whose import sleeps 8 s: the worst health latency while it loads;
4. memory: bytes held by the in-process episode store and by the demo model's call log after
   1,000 turns, against after 100 (tracemalloc).

    uv run python benchmarks/loop_stalls.py
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import httpx

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")
BIG_BYTES = 50 * 1024 * 1024
SLOW_IMPORT_S = 8


def write_session(path: Path, lines: list[str]) -> None:
    header = {"type": "header", "format": 1, "id": path.stem, "agent_id": "main"}
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({**header, "user_id": "local", "created_ms": 1}) + "\n")
        for line in lines:
            out.write(line + "\n")


def entry(turn: int, text: str) -> str:
    message = {"role": "user", "content": text}
    return json.dumps({"type": "entry", "turn": turn, "ts_ms": turn, "message": message})


def prepare(home: Path) -> None:
    sessions = home / "sessions"
    sessions.mkdir(parents=True)
    filler = "x" * 1000
    write_session(sessions / "big.jsonl", [entry(n, filler) for n in range(1, BIG_BYTES // 1040)])
    write_session(sessions / "tail.jsonl", [entry(1, "hello"), entry(2, "y" * BIG_BYTES)])
    for n in range(20):
        write_session(sessions / f"small{n}.jsonl", [entry(1, f"small {n}")])


async def worst_health_while(url: str, work: Awaitable[Any]) -> tuple[float, float, int]:
    """(seconds the work took, worst health latency in ms, health answers) while it runs."""
    task = asyncio.ensure_future(work)
    worst, answers = 0.0, 0
    async with httpx.AsyncClient(timeout=120) as http:
        while not task.done() or answers == 0:
            asked = time.perf_counter()
            await http.get(f"{url}/api/health")
            worst = max(worst, time.perf_counter() - asked)
            answers += 1
            await asyncio.sleep(0.005)
    return float(await task), worst * 1000, answers


async def timed_get(url: str) -> float:
    async with httpx.AsyncClient(timeout=300) as http:
        started = time.perf_counter()
        response = await http.get(url)
        response.raise_for_status()
        return time.perf_counter() - started


def server_figures() -> None:
    home = Path(tempfile.mkdtemp(prefix="jarvis-stalls-"))
    try:
        prepare(home)
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
        env.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home))
        with (home / "serve.log").open("w") as log:
            server = subprocess.Popen(
                [JARVIS, "serve", "--demo", "--port", str(port)], env=env, stdout=log, stderr=log
            )
            try:
                asyncio.run(measure(f"http://127.0.0.1:{port}", home))
            finally:
                server.terminate()
                server.wait(10)
    finally:
        shutil.rmtree(home, ignore_errors=True)


async def measure(url: str, home: Path) -> None:
    await until_up(url)
    took, worst, n = await worst_health_while(url, timed_get(f"{url}/api/sessions"))
    print(f"session list, one session ends in a 50 MB line: {took * 1000:,.0f} ms "
          f"(health worst {worst:.1f} ms over {n} asks)")  # fmt: skip
    took, worst, n = await worst_health_while(url, timed_get(f"{url}/api/sessions/big/history"))
    print(f"history of a 50 MB session: {took * 1000:,.0f} ms "
          f"(health worst {worst:.1f} ms over {n} asks)")  # fmt: skip
    took, worst, n = await worst_health_while(url, slow_tool(home))
    print(f"user tool import sleeping {SLOW_IMPORT_S} s: health worst {worst:.1f} ms "
          f"over {n} asks during {took:.1f} s")  # fmt: skip


async def slow_tool(home: Path) -> float:
    """Write the tool, then wait until its import has run to the end (it leaves a marker)."""
    (home / "tools").mkdir(exist_ok=True)
    done = home / "imported"
    source = (
        f"import pathlib, time\ntime.sleep({SLOW_IMPORT_S})\n"
        f"pathlib.Path({str(done)!r}).touch()\nTOOL_NAME = 'slow'\n"
        "def execute(tool_call_id, params, **kw):\n    return 'done'\n"
    )
    started = time.perf_counter()
    (home / "tools" / "slow.py").write_text(source, encoding="utf-8")
    while not done.exists():  # noqa: ASYNC110 -- a file written by another process
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # a few more health asks after the import
    return time.perf_counter() - started


async def until_up(url: str) -> None:
    async with httpx.AsyncClient() as http:
        while True:
            try:
                if (await http.get(f"{url}/api/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.05)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def memory_figures() -> None:
    from jarvis.app.demo import demo_provider
    from jarvis.memory import MemoryService, MemorySettings, make_episode
    from jarvis.model_layer.messages import AssistantMessage, LLMContext, UserMessage

    memory = MemoryService(MemorySettings())
    provider = demo_provider()
    history: list[Any] = []
    held: dict[int, int] = {}
    tracemalloc.start()
    for turn in range(1, 1001):
        text = f"turn {turn}: please summarise report {turn % 37} and word{turn}"
        answer = "(demo) " + "answer words " * 60
        await memory.record_episode(
            make_episode(
                agent_id="main", user_id="u", session_id="s", turn=turn, ts_ms=turn,
                utterance=text, answer=answer, successful_calls=[("bash", {"command": "ls"})],
                outcome="success", overflow=False,
            )
        )  # fmt: skip
        history = [*history[-6:], UserMessage(content=text), AssistantMessage(content=answer)]
        ctx = LLMContext(system_prompt="s" * 3000, messages=history)
        async for _ in provider.stream("demo", ctx):
            pass
        if turn in (100, 500, 1000):
            held[turn] = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    shown = ", ".join(f"turn {turn:,}: {size / 1024:,.0f} KB" for turn, size in held.items())
    print(f"episode store + demo model call log held in process: {shown}")
    late = (held[1000] - held[500]) / 500
    print(f"growth per turn over turns 501-1,000: {late:,.0f} B")


def main() -> None:
    server_figures()
    asyncio.run(memory_figures())


if __name__ == "__main__":
    main()
