"""Gate decisions per second with a 200-rule file, the parse cost of a compound command, and the
time of one decision on 100 KB lines of several shapes.

The real `Sandbox.decide` (policy, plugins, dangerous commands on argv and regexes, rule files
re-checked by stat on every call, rule matching with the argument policy) over a mix of bash and
file calls that rules auto-approve or deny — no human in the loop, since asking is not what is
measured. Targets: >= 50,000 decisions/s (SPEC §15); one decision on a 100 KB line <= 50 ms, so
a hostile line cannot stall the event loop (the regex list took 7.9 s on 24 KB of `dd dd dd`).
Each long line is decided once, uncached (a distinct line per measurement).

    uv run python benchmarks/decide.py
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.common.clock import SystemClock
from jarvis.core.config import SecuritySettings
from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.sandbox import Sandbox
from jarvis.core.policy.shell import _PARSER, analyze_shell
from jarvis.core.tools.builtins import builtin_tools
from jarvis.model_layer import ToolCall

COMPOUND = "git status --short && git diff --stat | head -n 20; ls -la src 2>&1 > /dev/null"


def rule_file() -> str:
    lines = ["# 200 rules, as a busy user's file might look", "rules:"]
    for i in range(150):
        lines.append(f"  - {{tool: bash, pattern: tool{i} run}}")
    for i in range(40):
        lines.append(f"  - {{tool: write_file, pattern: 'src/pkg{i}/*'}}")
    lines += [
        "  - {tool: bash, pattern: git status}",
        "  - {tool: bash, pattern: git diff}",
        "  - {tool: bash, pattern: ls}",
        "  - {tool: bash, pattern: head}",
        "  - {tool: bash, pattern: git push, action: deny}",
        "  - {tool: edit_file, pattern: 'docs/**'}",
        "  - {tool: bash, pattern: uv run}",
        "  - {tool: bash, pattern: make test}",
        "  - {tool: write_file, pattern: 'tmp/*', action: deny}",
        "  - {tool: bash, pattern: pytest}",
    ]
    return "\n".join(lines) + "\n"


CALLS = [
    ("bash", {"command": "git status --short"}),
    ("bash", {"command": COMPOUND}),
    ("bash", {"command": "git push origin main"}),
    ("bash", {"command": "tool120 run --fast"}),
    ("write_file", {"path": "src/pkg7/module.py", "content": "x"}),
    ("write_file", {"path": "tmp/scratch.txt", "content": "x"}),
    ("edit_file", {"path": "docs/guide/intro.md", "old_string": "a", "new_string": "b"}),
    ("read_file", {"path": "README.md"}),
]


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "approvals.yaml").write_text(rule_file(), encoding="utf-8")
        sandbox = Sandbox(
            settings=SecuritySettings(),
            rules=RuleStore(home),
            approvals=None,
            workspace=home,
            clock=SystemClock(),
        )
        tools = {tool.name: tool for tool in builtin_tools()}
        ctx = ToolCallContext("bench", "main", 1, asyncio.Event())
        calls = [(tools[name], ToolCall(id="c", name=name, arguments=args)) for name, args in CALLS]
        outcomes = {
            c.name + str(c.arguments)[:30]: (await sandbox.decide(t, c, ctx)).reason
            for t, c in calls
        }
        rates = []
        for _ in range(5):
            count, start = 0, time.perf_counter()
            while count < 40_000:
                for tool, call in calls:
                    await sandbox.decide(tool, call, ctx)
                count += len(calls)
            rates.append(count / (time.perf_counter() - start))
    parse = []
    for i in range(2000):
        line = f"{COMPOUND} # {i}"  # distinct text defeats the parse cache
        start = time.perf_counter()
        analyze_shell(line)
        parse.append(time.perf_counter() - start)
    cached_start = time.perf_counter()
    for _ in range(10_000):
        analyze_shell(COMPOUND)
    cached = (time.perf_counter() - cached_start) / 10_000
    print("| measure | value |\n|---|---|")
    print(
        f"| decisions/s, 200-rule file, {len(CALLS)}-call mix (median of 5) | "
        f"{statistics.median(rates):,.0f} |"
    )
    print(
        f"| parse a compound command (4 simple commands), uncached, median | "
        f"{statistics.median(parse) * 1e6:.1f} µs |"
    )
    print(f"| same command, parse cache hit | {cached * 1e6:.2f} µs |")
    print("\noutcomes:", ", ".join(f"{k} → {v}" for k, v in outcomes.items()))
    await long_lines()


LONG = 100_000  # characters


def long_line_shapes() -> dict[str, str]:
    body = "x" * (LONG - 30)
    return {
        "`dd dd dd …` (the regex ReDoS)": "dd " * (LONG // 3),
        "`git status 'a' && ` × 5,500": ("git status 'a' && " * (LONG // 18))[:-4],
        "one quoted 100 KB argument": 'echo "' + "a b " * (LONG // 4) + '"',
        "heredoc with a 100 KB body": "cat <<'EOF'\n" + body + "\nEOF\n",
        "`{,,,` brace word": "echo {" + "," * LONG,
        "`nice nice …` wrapper chain": "nice " * (LONG // 5) + "ls",
        "`$(` nested to the depth limit, padded": "echo "
        + "$(" * 60
        + "x"
        + ")" * 60
        + " a" * (LONG // 2 - 200),
        "`-x -x …` flags on a git rule": "git log" + " -x" * (LONG // 3),
        "`echo $x && ` × 9,000 (not plain)": ("echo $x && " * (LONG // 11))[:-4],
        "`dd dd … $y` (one word not plain)": "dd " * (LONG // 3) + "$y",
    }


async def long_lines() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "approvals.yaml").write_text(rule_file(), encoding="utf-8")
        sandbox = Sandbox(
            settings=SecuritySettings(),
            rules=RuleStore(home),
            approvals=None,
            workspace=home,
            clock=SystemClock(),
        )
        bash = next(tool for tool in builtin_tools() if tool.name == "bash")
        ctx = ToolCallContext("bench", "main", 1, asyncio.Event())
        print("\n| 100 KB line | parse only | whole decision: wall / CPU (median of 5) | outcome |")
        print("|---|---|---|---|")
        for name, line in long_line_shapes().items():
            parses, decisions, cpus, outcome = [], [], [], ""
            for round_ in range(5):
                distinct = f"{line} #{round_}"
                start = time.perf_counter()
                _PARSER.parse(distinct.encode())
                parses.append(time.perf_counter() - start)
                call = ToolCall(id="c", name="bash", arguments={"command": f"{line} r{round_}"})
                start, cpu = time.perf_counter(), time.process_time()
                decision = await sandbox.decide(bash, call, ctx, dry_run=True)
                decisions.append(time.perf_counter() - start)
                cpus.append(time.process_time() - cpu)
                outcome = f"{decision.outcome} · {decision.reason}"
            print(
                f"| {name} ({len(line) // 1000} KB) | {statistics.median(parses) * 1e3:.1f} ms | "
                f"{statistics.median(decisions) * 1e3:.1f} / {statistics.median(cpus) * 1e3:.1f} ms"
                f" | {outcome} |"
            )


if __name__ == "__main__":
    asyncio.run(main())
