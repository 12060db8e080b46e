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

3. Where bubblewrap's time goes (`--pieces N`): bwrap running `/bin/true` with the argv Jarvis
   builds and with one piece changed at a time, interleaved, wall p50/p95 and CPU p50 (the
   CPU of the child processes, less sensitive to machine load than wall time):
   no network namespace; no network namespace but a seccomp filter (socket() only for
   AF_UNIX, no io_uring; classic BPF assembled below, given to `bwrap --seccomp FD`); no fresh
   /dev; no hidden paths; only user + PID namespaces.

    uv run python benchmarks/sandbox.py [--calls 200] [--pieces 100]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import statistics
import struct
import subprocess
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
    cpu: dict[str, list[float]] = {"plain": [], "sandbox": []}
    load = os.getloadavg()
    for tool in (plain, boxed):  # warm both paths once
        await tool.execute("w", {"command": "true"}, env)
    for _ in range(calls):
        for name, tool in (("plain", plain), ("sandbox", boxed)):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            result = await tool.execute("c", {"command": "true"}, env)
            times[name].append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            cpu[name].append(used * 1000)
            assert not result.is_error, result.content
    print(
        f"one bash call running `true` ({calls} calls each, interleaved; load {load[0]:.1f} -> "
        f"{os.getloadavg()[0]:.1f}), ms (cpu: of the child processes):"
    )
    for name, values in times.items():
        print(
            f"  {name:8} p50 {_p(values, 50):6.1f}  p95 {_p(values, 95):6.1f}"
            f"  cpu p50 {_p(cpu[name], 50):5.1f}"
        )
    extra = [b - a for a, b in zip(times["plain"], times["sandbox"], strict=True)]
    print(f"  added    p50 {_p(extra, 50):6.1f}  p95 {_p(extra, 95):6.1f}  (target p50 <= 10 ms)")


# seccomp: classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args[0] low word at 16).
_LD_ABS, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_ALLOW, _ERRNO, _KILL = 0x7FFF0000, 0x00050000, 0x80000000
_ARCH = {"x86_64": (0xC000003E, 41, 425), "aarch64": (0xC00000B7, 198, 425)}  # arch, socket, uring


def seccomp_no_inet() -> bytes:
    """socket() only for AF_UNIX (EAFNOSUPPORT otherwise), io_uring_setup refused (it can open
    sockets too), another ABI (i386, x32) killed."""
    arch, socket_nr, uring_nr = _ARCH[platform.machine()]

    def op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
        return struct.pack("HBBI", code, jt, jf, k)

    return b"".join([
        op(_LD_ABS, 4), op(_JEQ, arch, 1, 0), op(_RET, _KILL),
        op(_LD_ABS, 0), op(_JGE, 0x40000000, 0, 1), op(_RET, _KILL),
        op(_JEQ, socket_nr, 0, 3), op(_LD_ABS, 16), op(_JEQ, 1, 3, 0), op(_RET, _ERRNO | 97),
        op(_JEQ, uring_nr, 0, 1), op(_RET, _ERRNO | 38),
        op(_RET, _ALLOW),
    ])  # fmt: skip


def pieces(rounds: int, root: Path) -> None:
    ws = root / "pieces"
    ws.mkdir()
    confiner = Confiner("required", Limits(), Path.home(), root / "data")
    if confiner.refusal() is not None:
        return
    today = confiner.wrap(["/bin/true"], ws)
    cut = today.index("--unshare-all")

    def without(*names: str) -> list[str]:
        out, skip = [], 0
        for i, word in enumerate(today):
            if skip:
                skip -= 1
            elif word in names:
                skip = 1 if word in ("--dev", "--proc") else 0
            elif word == "--tmpfs" and "hidden" in names and today[i + 1] not in ("/tmp", "/run"):
                skip = 1
            elif word == "--ro-bind" and "hidden" in names and today[i + 1] == "/dev/null":
                skip = 2
            else:
                out.append(word)
        return out

    variants = {
        "bash -c true": ["/bin/bash", "-c", "true"],
        "bwrap as Jarvis runs it": today,
        "no network namespace": [*today[:cut], "--unshare-all", "--share-net", *today[cut + 1 :]],
        "  + seccomp (AF_UNIX only)": [
            *today[:cut], "--unshare-all", "--share-net", "--seccomp", "FD", *today[cut + 1 :]
        ],
        "no fresh /dev": without("--dev"),
        "no hidden paths": without("hidden"),
        "user + PID namespaces only": [
            *today[:cut], "--unshare-user-try", "--unshare-pid", *today[cut + 1 :]
        ],
    }  # fmt: skip
    program = seccomp_no_inet()
    wall: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    load = os.getloadavg()
    for _ in range(rounds):
        for name, argv in variants.items():
            fds: tuple[int, ...] = ()
            if "FD" in argv:
                fd = os.memfd_create("seccomp", 0)
                os.write(fd, program)
                os.lseek(fd, 0, os.SEEK_SET)
                argv, fds = [str(fd) if w == "FD" else w for w in argv], (fd,)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, check=True, pass_fds=fds)
            wall[name].append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            cpu[name].append(used * 1000)
            for fd in fds:
                os.close(fd)
    print(f"\nwhere bubblewrap's time goes ({rounds} rounds, interleaved; load {load[0]:.1f} "
          f"-> {os.getloadavg()[0]:.1f}), ms:")  # fmt: skip
    for name in variants:
        w, c = wall[name], cpu[name]
        print(
            f"  {name:28} wall p50 {_p(w, 50):6.1f}  p95 {_p(w, 95):6.1f}  cpu p50 {_p(c, 50):5.1f}"
        )


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
    parser.add_argument("--pieces", type=int, default=100, help="rounds of the breakdown (0: off)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        await cost(args.calls, root)
        if args.pieces:
            pieces(args.pieces, root)
        await prompt_table(root)


if __name__ == "__main__":
    asyncio.run(main())
