"""The OS sandbox: what bubblewrap adds to one `bash` call, and the prompts it saves (item 6).

1. Cost: the real `BashTool` running `true` in a workspace, N times without the sandbox and N
   times inside it (interleaved, so machine load hits both alike); p50 and p95 of each and of
   the difference. Target: <= 10 ms p50 on top of today's start-up.
2. Prompts per 100 commands over `benchmarks/data/sandbox_workload.jsonl` (200 commands of a
   working session, written by hand: exploring, grepping, tests, builds, git, edits, network,
   and destructive or exfiltrating lines), decided by the real gate (`Sandbox.decide`, dry
   run: "ask" is where a person would be asked):
   - gate alone, no remembered rules; gate alone with the person answering ALWAYS to every
     offer (the rule is saved and matches later lines);
   - the same two with `security.sandbox_auto_allow` (gate + sandbox mode);
   and, for each, how many of the destructive / exfiltrating lines still reach a person (ask),
   are blocked, or run unasked.

    uv run python benchmarks/sandbox.py [--calls 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.common.clock import SystemClock
from jarvis.core.config import SecuritySettings
from jarvis.core.confine import Confiner, Limits
from jarvis.core.confine.auto_allow import confined_call
from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.rules import Rule
from jarvis.core.policy.sandbox import Sandbox
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.builtins import builtin_tools
from jarvis.core.tools.builtins.shell import BashTool
from jarvis.model_layer import ToolCall

WORKLOAD = Path(__file__).with_name("data") / "sandbox_workload.jsonl"
RISKS = ("destructive", "exfiltrating")


def _ctx() -> ToolCallContext:
    return ToolCallContext("bench", "main", 1, asyncio.Event())


async def cost(calls: int, root: Path) -> None:
    ws = root / "ws"
    ws.mkdir()
    confiner = Confiner("required", Limits(), Path.home(), root / "data")
    if confiner.refusal() is not None:
        print(f"bash call cost: not measured — {confiner.probe.reason}")
        return
    plain, boxed = BashTool(), BashTool(confiner=confiner)
    env = ToolEnv(workspace=ws, call=_ctx())
    times: dict[str, list[float]] = {"plain": [], "sandbox": []}
    for tool in (plain, boxed):  # warm both paths once
        await tool.execute("w", {"command": "true"}, env)
    for _ in range(calls):
        for name, tool in (("plain", plain), ("sandbox", boxed)):
            start = time.perf_counter()
            result = await tool.execute("c", {"command": "true"}, env)
            times[name].append((time.perf_counter() - start) * 1000)
            assert not result.is_error, result.content
    print(f"one bash call running `true` ({calls} calls each, interleaved), ms:")
    for name, values in times.items():
        print(f"  {name:8} p50 {_p(values, 50):6.1f}  p95 {_p(values, 95):6.1f}")
    extra = [b - a for a, b in zip(times["plain"], times["sandbox"], strict=True)]
    print(f"  added    p50 {_p(extra, 50):6.1f}  p95 {_p(extra, 95):6.1f}  (target p50 <= 10 ms)")


def _p(values: list[float], pct: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[pct - 1]


@dataclass
class Tally:
    prompts: int = 0
    risky: Counter[str] | None = None


async def prompts(root: Path, *, sandbox_mode: bool, always: bool, name: str) -> Tally:
    data = root / name
    ws = data / "ws"
    ws.mkdir(parents=True)
    gate = Sandbox(
        settings=SecuritySettings(),
        rules=RuleStore(data),
        approvals=None,
        workspace=ws,
        clock=SystemClock(),
        user_home=Path("/home/dev"),
        jarvis_home=data,
        confined=confined_call if sandbox_mode else None,
    )
    bash = {t.name: t for t in builtin_tools()}["bash"]
    tally = Tally(risky=Counter())
    for line in WORKLOAD.read_text().splitlines():
        item = json.loads(line)
        call = ToolCall(id="c", name="bash", arguments={"command": item["command"]})
        decision = await gate.decide(bash, call, _ctx(), dry_run=True)
        asked = decision.outcome == "ask"
        tally.prompts += asked
        risk = item.get("risk")
        if risk in RISKS:
            verdict = "asks" if asked else "blocked" if decision.outcome == "block" else "unasked"
            assert tally.risky is not None
            tally.risky[f"{risk}:{verdict}"] += 1
        if asked and always and decision.detail:
            await gate.rules.add_rule(
                "main",
                Rule(tool="bash", pattern=decision.detail, granted_by="local",
                     fingerprint=gate.fingerprint(bash, True)),
            )  # fmt: skip
    return tally


async def prompt_table(root: Path) -> None:
    lines = WORKLOAD.read_text().splitlines()
    kinds = Counter(json.loads(line).get("risk", "ordinary") for line in lines)
    print(f"\nprompts per 100 commands ({len(lines)} commands: {dict(kinds)}):")
    print(f"  {'mode':34} {'per 100':>8}   destructive / exfiltrating: asks, blocked, unasked")
    for label, sandbox_mode, always in (
        ("gate alone", False, False),
        ("gate alone, ALWAYS to every offer", False, True),
        ("gate + sandbox mode", True, False),
        ("gate + sandbox mode, ALWAYS", True, True),
    ):
        name = label.replace(" ", "_").replace(",", "").replace("+", "and")
        tally = await prompts(root, sandbox_mode=sandbox_mode, always=always, name=name)
        per100 = 100 * tally.prompts / len(lines)
        risky = tally.risky or Counter()
        cells = [
            "/".join(str(risky[f"{r}:{v}"]) for v in ("asks", "blocked", "unasked")) for r in RISKS
        ]
        print(f"  {label:34} {per100:8.1f}   {cells[0]:>9}   {cells[1]:>9}")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        await cost(args.calls, root)
        await prompt_table(root)


if __name__ == "__main__":
    asyncio.run(main())
