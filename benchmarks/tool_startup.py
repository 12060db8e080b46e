"""Tool start-up: from the `bash` tool's `execute` until the command's first instruction runs.

The command is `echo $EPOCHREALTIME` (bash's clock when it starts running the line): start-up
is that moment minus the moment `execute` was called (same clock, CLOCK_REALTIME). Without the
OS sandbox (through the pre-forked launcher's spare outer process) and inside it (bwrap; after
the first call one started ahead, `_ready.py`), N calls each, interleaved so machine load hits
both alike; p50 and p95, and the load average before and after (issue 29 item 2: target p50
<= 3 ms without the sandbox). To compare with an older build, run it with that build's `src`
first on PYTHONPATH.

    uv run python benchmarks/tool_startup.py [--calls 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.core.confine import Confiner, Limits
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.builtins.shell import BashTool


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ws = root / "ws"
        ws.mkdir()
        confiner = Confiner("required", Limits(), Path.home(), root / "data")
        tools = {"without sandbox": BashTool()}
        if confiner.refusal() is None:
            tools["with sandbox"] = BashTool(confiner=confiner)
        else:
            print(f"with sandbox: not measured — {confiner.probe.reason}")
        env = ToolEnv(workspace=ws, call=ToolCallContext("bench", "main", 1, asyncio.Event()))
        starts: dict[str, list[float]] = {name: [] for name in tools}
        for tool in tools.values():  # warm each path once
            await tool.execute("w", {"command": "true"}, env)
        load = os.getloadavg()
        for _ in range(args.calls):
            for name, tool in tools.items():
                called = time.time()
                result = await tool.execute("c", {"command": "echo $EPOCHREALTIME"}, env)
                ran = float(result.content.split("stdout:\n", 1)[1].split()[0])
                starts[name].append((ran - called) * 1000)
        print(
            f"bash tool start-up, execute() -> the command runs ({args.calls} calls each, "
            f"interleaved; load {load[0]:.1f} -> {os.getloadavg()[0]:.1f}), ms:"
        )
        for name, values in starts.items():
            p = statistics.quantiles(values, n=100, method="inclusive")
            print(f"  {name:16} p50 {p[49]:6.2f}  p95 {p[94]:6.2f}")


if __name__ == "__main__":
    asyncio.run(main())
