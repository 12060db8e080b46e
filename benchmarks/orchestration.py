"""Orchestration cost: what one delegation adds, and whether blackboard agents truly overlap.

1. Overhead per delegation: an `agent_worker` call through the real gate and tool registry
   (memory backend, episode recorded) with an instant scripted model, against the same model
   answering one bare agent-loop run. `--rounds` delegations (default 500); median and p95.
2. Blackboard wall time: 4 sub-agents whose model answers after 1 s each, run by `orchestrate`
   with pattern blackboard. Target <= 1.2 s (sequential would be 4 s).

    uv run python benchmarks/orchestration.py [--rounds 500]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from jarvis.agent_layer.loop import run_agent_loop
from jarvis.agent_layer.tools import NoTools, ToolCallContext
from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.infra import AppAssembly, build_app
from jarvis.app.settings import Settings
from jarvis.core.tools.executor import GatedTools
from jarvis.model_layer.messages import LLMContext, ToolCall, UserMessage
from jarvis.model_layer.providers.faux import FauxProvider, FauxResponse

BLACKBOARD_TARGET_SEC = 1.2


def assembly(home: Path, agents: list[dict[str, object]], provider: FauxProvider) -> AppAssembly:
    (home / "agents").mkdir()
    (home / "agents" / "team.yaml").write_text(json.dumps(agents), "utf-8")
    settings = Settings(
        home=home,
        workspace=home,
        model={"provider": "faux", "model": "faux"},
        storage={"backend": "memory"},
        openloop={"enabled": False},
    )
    app = build_app(settings)
    app._provider_cache[settings.model.model_dump_json()] = provider  # the scripted model
    AgentRegistry(app)
    app.extensions.initial_load()
    return app


def context() -> ToolCallContext:
    return ToolCallContext("bench", "main", 1, asyncio.Event(), emit=lambda event: None)


def quantiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.95) - 1]


async def delegation_overhead(rounds: int) -> dict[str, float]:
    provider = FauxProvider(script=lambda ctx: "ok", keep_calls=0)
    with tempfile.TemporaryDirectory() as tmp:
        app = assembly(Path(tmp), [{"name": "worker"}], provider)
        tools = GatedTools(app.tools, app.settings.workspace_dir, app.gate)
        delegation: list[float] = []
        bare: list[float] = []
        for index in range(rounds + 20):  # the first 20 warm up
            call = ToolCall(id=f"c{index}", name="agent_worker", arguments={"task": "do it"})
            started = time.perf_counter()
            await tools.execute(call, context())
            took = time.perf_counter() - started
            started = time.perf_counter()
            await run_agent_loop(
                provider=provider,
                model="faux",
                system_prompt="worker",
                history=[UserMessage(content="do it")],
                tools=NoTools(),
                emit=lambda event: None,
                tool_context=context(),
            )
            if index >= 20:
                delegation.append(took)
                bare.append(time.perf_counter() - started)
    d_median, d_p95 = quantiles(delegation)
    b_median, _ = quantiles(bare)
    return {
        "delegation_median_ms": d_median * 1000,
        "delegation_p95_ms": d_p95 * 1000,
        "bare_loop_median_ms": b_median * 1000,
        "overhead_median_ms": (d_median - b_median) * 1000,
    }


async def blackboard_wall_time() -> float:
    def slow(ctx: LLMContext) -> FauxResponse:
        return FauxResponse(text="found something", delay_sec=1.0)

    provider = FauxProvider(script=slow, keep_calls=0)
    agents: list[dict[str, object]] = [{"name": f"r{i}"} for i in range(4)]
    with tempfile.TemporaryDirectory() as tmp:
        app = assembly(Path(tmp), agents, provider)
        tools = GatedTools(app.tools, app.settings.workspace_dir, app.gate)
        call = ToolCall(
            id="bb", name="orchestrate", arguments={"pattern": "blackboard", "task": "research"}
        )
        started = time.perf_counter()
        result = await tools.execute(call, context())
        took = time.perf_counter() - started
        assert result.content.count("found something") == 4, result.content
        return took


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500)
    args = parser.parse_args()
    overhead = await delegation_overhead(args.rounds)
    print(f"delegation ({args.rounds} rounds, instant model):")
    for key, value in overhead.items():
        print(f"  {key:<24} {value:8.3f}")
    wall = await blackboard_wall_time()
    verdict = "ok" if wall <= BLACKBOARD_TARGET_SEC else "OVER TARGET"
    target = BLACKBOARD_TARGET_SEC
    print(f"blackboard, 4 agents x 1 s model: {wall:.3f} s (target <= {target}) {verdict}")
    return 0 if wall <= BLACKBOARD_TARGET_SEC else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
