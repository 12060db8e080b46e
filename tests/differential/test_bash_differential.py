"""The shell gate tested against real bash (SPEC §16): for every generated line the gate would
auto-approve, run it under `/bin/bash` with `env -i`, a PATH of logging stubs and a scratch
directory; any program or builtin that ran and is not one of the gate's listed simple commands
(name and argv) is a failure. Seeded, so a run is reproducible; set JARVIS_DIFFERENTIAL_SEED and
JARVIS_DIFFERENTIAL_LINES to explore further, and keep what it finds in `found_bypasses.py`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.common.clock import SystemClock
from jarvis.core.config import SecuritySettings
from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.sandbox import Sandbox
from jarvis.core.policy.shell import analyze_shell
from jarvis.core.tools.builtins import builtin_tools
from jarvis.model_layer import ToolCall
from tests.differential.found_bypasses import FOUND
from tests.differential.generator import ALLOWED, OTHERS, LineGenerator
from tests.differential.harness import Executed, StubBox, unlisted

SEED = int(os.environ.get("JARVIS_DIFFERENTIAL_SEED", "20261203"))
LINES = int(os.environ.get("JARVIS_DIFFERENTIAL_LINES", "4000"))
WORKERS = 3
# The rule sets the gate is asked with: the allow list, and `*` (every plain command),
# which lets far more lines through to bash and so tests the parse far harder.
ALLOW_LIST = ("echo", "ls", "cat", "git status", "printf", "true")
EVERYTHING = ("*",)


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> StubBox:
    return StubBox(tmp_path_factory.mktemp("bash"), names=(*ALLOWED, *OTHERS, "git"))


@pytest.fixture(scope="module")
def gates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Sandbox]:
    return {
        "allow_list": _sandbox(tmp_path_factory.mktemp("allow_list"), ALLOW_LIST),
        "everything": _sandbox(tmp_path_factory.mktemp("everything"), EVERYTHING),
    }


def test_bash_runs_only_what_the_gate_listed(box: StubBox, gates: dict[str, Sandbox]) -> None:
    generator = LineGenerator(SEED)
    lines = list(dict.fromkeys(generator.line() for _ in range(LINES)))
    approved = asyncio.run(_approved(gates, lines))
    runnable = [line for line in lines if approved[line]]
    failures = _differential(box, runnable)
    print(
        f"\ndifferential: seed {SEED}, {len(lines)} distinct lines, "
        f"{sum('allow_list' in a for a in approved.values())} auto-approved under the allow "
        f"list, {len(runnable)} under '*' and run under bash, {len(failures)} failures"
    )
    assert not failures, _report(failures)


@pytest.mark.parametrize(("line", "why"), FOUND)
def test_found_bypasses_stay_fixed(
    box: StubBox, gates: dict[str, Sandbox], line: str, why: str
) -> None:
    approved = asyncio.run(_approved(gates, [line]))[line]
    if approved:  # approved is fine only if bash then runs exactly what the gate listed
        assert not _differential(box, [line]), why


def test_the_harness_sees_a_hidden_command(box: StubBox) -> None:
    """The check itself: a line whose parse is wrong on purpose is caught."""
    executed = box.run("echo a; id -u", slot=99)
    assert executed == [Executed("echo", ("a",)), Executed("id", ("-u",))] or sorted(
        executed, key=lambda e: e.name
    ) == [Executed("echo", ("a",)), Executed("id", ("-u",))]
    assert unlisted([("echo", "a")], executed) == [Executed("id", ("-u",))]
    assert unlisted([("echo", "a"), ("id", "-u")], executed) == []


def _sandbox(home: Path, patterns: Sequence[str]) -> Sandbox:
    rules = "".join(f"  - {{tool: bash, pattern: '{pattern}'}}\n" for pattern in patterns)
    (home / "approvals.yaml").write_text("rules:\n" + rules, encoding="utf-8")
    return Sandbox(
        settings=SecuritySettings(),
        rules=RuleStore(home),
        approvals=None,
        workspace=home,
        clock=SystemClock(),
    )


async def _approved(gates: dict[str, Sandbox], lines: Sequence[str]) -> dict[str, set[str]]:
    bash = next(tool for tool in builtin_tools() if tool.name == "bash")
    ctx = ToolCallContext("differential", "main", 1, asyncio.Event())
    verdicts: dict[str, set[str]] = {}
    for line in lines:
        call = ToolCall(id="c", name="bash", arguments={"command": line})
        verdicts[line] = {
            name
            for name, gate in gates.items()
            if (await gate.decide(bash, call, ctx, dry_run=True)).outcome == "allow"
        }
    return verdicts


def _differential(box: StubBox, lines: Sequence[str]) -> list[tuple[str, list[Executed]]]:
    def run_share(slot: int) -> list[tuple[str, list[Executed]]]:
        found = []
        for line in lines[slot::WORKERS]:
            listed = [command.argv for command in analyze_shell(line).commands]
            wrong = unlisted(listed, box.run(line, slot))
            if wrong:
                found.append((line, wrong))
        return found

    with ThreadPoolExecutor(WORKERS) as pool:
        return [failure for share in pool.map(run_share, range(WORKERS)) for failure in share]


def _report(failures: list[tuple[str, list[Executed]]]) -> str:
    shown = [f"{line!r}: ran {[(e.name, *e.args) for e in wrong]}" for line, wrong in failures]
    return "bash ran commands the gate did not list:\n" + "\n".join(shown[:40])
