"""Framework time per turn, Jarvis beside pydantic-ai, LangGraph and the OpenAI Agents SDK, in
one run (issue 29: Jarvis ≥ 25× every peer at turn 200).

Every framework answers with an instant scripted model of its own kind (Jarvis: `FauxProvider`;
the peers: see `benchmarks/peers/frameworks.py`), so what is timed is the framework: building the
request from the history, calling the model, storing the turn. Jarvis is the full assembly as a
person gets it (`build_app` + the main agent from the registry: system prompt, tools, the gate,
memory recall and episodes, the session store), with the files backend (JSONL sessions, the
SQLite memory — the default) and with the memory backend (everything in the process). Each
framework runs in its own process, one after the other (the peers in `.venv-peers`, made by
`benchmarks/peers/make_venv.sh`); per framework 3 sessions × 200 turns after a discarded warm-up
session, per turn the median over sessions, then the medians of turns 1–20 and 181–200, of the
wall time and of the process's CPU time.

    benchmarks/peers/make_venv.sh     # once
    nice -n 15 .venv/bin/python benchmarks/peer_overhead.py [--turns 200] [--sessions 3]
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PEERS_PYTHON = ROOT / ".venv-peers" / "bin" / "python"
PEERS = ("pydantic-ai", "langgraph", "agents-sdk")
JARVIS = {"jarvis-files": "files", "jarvis-memory": "memory"}
LABELS = {
    "jarvis-files": "Jarvis (JSONL sessions, SQLite memory: the default)",
    "jarvis-memory": "Jarvis (memory backend)",
    "pydantic-ai": "pydantic-ai (FunctionModel, JSON file history)",
    "langgraph": "LangGraph (create_react_agent, SQLite checkpointer)",
    "agents-sdk": "OpenAI Agents SDK (custom Model, SQLiteSession)",
}
ANSWER = "Sure — here is a short answer to that question."


async def jarvis_overhead(backend: str, turns: int, sessions: int) -> dict[str, Any]:
    from jarvis.app.agent_registry import AgentRegistry
    from jarvis.app.infra import build_app
    from jarvis.app.settings import Settings
    from jarvis.model_layer import FauxProvider, FauxResponse

    instant = {"provider": "instant", "model": "instant"}
    options: dict[str, Any] = {"language": "en", "model": instant, "storage": {"backend": backend}}
    per_session: list[list[tuple[float, float]]] = []
    for index in range(sessions + 1):  # the first session is a warm-up
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp)
            app = build_app(Settings(home=home, workspace=home, **options))
            # keep_calls=0: the scripted model keeps no deep copy of each prompt (test bookkeeping)
            answer = FauxResponse(text=ANSWER, chunk=8)
            model = FauxProvider(script=lambda _ctx, answer=answer: answer, keep_calls=0)
            app.providers.register("instant", lambda _settings, model=model: model)
            builder = AgentRegistry(app).get("main")
            assert builder is not None
            session = await builder.create()
            rows = []
            for n in range(1, turns + 1):
                start, cpu = time.perf_counter(), time.process_time()
                await session.prompt(f"question number {n}: what should I do about the report?")
                rows.append((time.perf_counter() - start, time.process_time() - cpu))
            await app.aclose()
            if index:
                per_session.append(rows)
    wall = [statistics.median(s[i][0] for s in per_session) for i in range(turns)]
    cpu = [statistics.median(s[i][1] for s in per_session) for i in range(turns)]
    return {"wall": wall, "cpu": cpu}


def measure(name: str, turns: int, sessions: int) -> dict[str, Any]:
    """One framework in a new process."""
    size = ["--turns", str(turns), "--sessions", str(sessions)]
    if name in JARVIS:
        command = [sys.executable, __file__, "--worker", name, *size]
    else:
        script = str(ROOT / "benchmarks" / "peers" / "frameworks.py")
        command = [str(PEERS_PYTHON), script, "overhead", "--framework", name, *size]
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    if done.returncode:
        raise SystemExit(f"{name} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if name in JARVIS:
        head = ["git", "rev-parse", "--short", "HEAD"]
        commit = subprocess.run(head, capture_output=True, text=True, cwd=ROOT).stdout.strip()
        result["version"] = f"commit {commit}"
    return result


def spans(values: list[float], turns: int) -> tuple[float, float]:
    """Medians of turns 1–20 and of the last 20, in ms."""
    return statistics.median(values[:20]) * 1000, statistics.median(values[-20:]) * 1000


def report(results: dict[str, dict[str, Any]], turns: int) -> None:
    late = f"{turns - 19}–{turns}"
    print(f"| framework | version | wall ms, turns 1–20 | wall ms, turns {late} | ", end="")
    print(f"CPU ms, turns 1–20 | CPU ms, turns {late} |")
    print("|---|---|---|---|---|---|")
    for name, data in results.items():
        wall, cpu = spans(data["wall"], turns), spans(data["cpu"], turns)
        cells = f"{wall[0]:.3f} | {wall[1]:.3f} | {cpu[0]:.3f} | {cpu[1]:.3f}"
        print(f"| {LABELS[name]} | {data['version']} | {cells} |")
    print(f"\nRatios at turns {late} (peer ÷ Jarvis; wall, CPU in brackets), target ≥ 25×:")
    for jarvis in (n for n in results if n in JARVIS):
        own_wall, own_cpu = (
            spans(results[jarvis]["wall"], turns)[1],
            spans(results[jarvis]["cpu"], turns)[1],
        )
        ratios = []
        for peer in (n for n in results if n not in JARVIS):
            wall, cpu = (
                spans(results[peer]["wall"], turns)[1],
                spans(results[peer]["cpu"], turns)[1],
            )
            ratios.append(f"{peer} {wall / own_wall:.1f}× ({cpu / own_cpu:.1f}×)")
        print(f"- {LABELS[jarvis]}: " + ", ".join(ratios))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--only", nargs="*", choices=[*JARVIS, *PEERS], help="a subset")
    parser.add_argument("--worker", choices=list(JARVIS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        data = asyncio.run(jarvis_overhead(JARVIS[args.worker], args.turns, args.sessions))
        print(json.dumps(data))
        return 0
    names = args.only or [*JARVIS, *PEERS]
    if any(n in PEERS for n in names) and not PEERS_PYTHON.exists():
        raise SystemExit("no .venv-peers: run benchmarks/peers/make_venv.sh first")
    load = os.getloadavg()[0]
    results = {name: measure(name, args.turns, args.sessions) for name in names}
    print(f"{args.turns} turns × {args.sessions} sessions per framework; load average ", end="")
    print(f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end\n")
    report(results, args.turns)
    return 0


if __name__ == "__main__":
    sys.exit(main())
