"""Under a `*` bash rule (the person allowed all bash; the gate alone, no OS sandbox), a line
that writes outside the workspace or reads a secret location by a glob after `cd` still goes to
a human: real gate, real bash tool, real files. Writes inside the workspace still run unasked."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.core.approvals.audit import AuditLog
from jarvis.core.approvals.request import ApprovalRequest
from jarvis.core.policy.gate import Gate
from jarvis.core.tools.builtins import builtin_tools
from jarvis.core.tools.executor import GatedTools
from jarvis.core.tools.registry import ToolRegistry
from jarvis.model_layer import ToolCall
from tests.integration.gate.test_boundary_gate import home as home
from tests.integration.gate.test_boundary_gate import make
from tests.integration.gate.test_decide import ctx
from tests.unit.policy.destructive_table import REACH

BASH = next(tool for tool in builtin_tools() if tool.name == "bash")
STAR = "rules:\n  - {tool: bash, pattern: '*'}\n"
SECRET = "OPENAI_API_KEY=sk-planted-secret\n"


def gated(tmp_path: Path, home: Path) -> tuple[GatedTools, list[ApprovalRequest], Path]:
    setup = make(tmp_path, home, ["deny"] * 20, rules=STAR)
    registry = ToolRegistry()
    for tool in builtin_tools():
        registry.register(tool)
    tools = GatedTools(registry, setup.ws, Gate(setup.sandbox, AuditLog(), "en"))
    (setup.ws / "a.txt").write_text("a\n", encoding="utf-8")
    return tools, setup.human.requests, setup.ws


@pytest.mark.parametrize(
    ("command", "planted"),
    [
        ("cp /etc/hostname ../planted", "planted"),
        ("echo x | tee ~/planted-tee", "home/planted-tee"),
        ("cp -t .. a.txt", "a.txt"),
        ("mv a.txt ../moved", "moved"),
        ("cd .. && cp ws/a.txt planted2", "planted2"),
        ("cd && touch planted-home", "home/planted-home"),
        ("dd if=a.txt of=../planted-dd", "planted-dd"),
        ("ln -s /etc/passwd ../planted-ln", "planted-ln"),
    ],
)
async def test_a_write_outside_the_workspace_asks_under_a_star_rule(
    tmp_path: Path, home: Path, command: str, planted: str
) -> None:
    tools, requests, _ = gated(tmp_path, home)
    call = ToolCall(id="c", name="bash", arguments={"command": command})
    result = await tools.execute(call, ctx())
    assert result.is_error and len(requests) == 1, (command, result.content)
    assert not (tmp_path / planted).exists()


async def test_a_glob_after_cd_reaching_a_secret_asks(tmp_path: Path, home: Path) -> None:
    (home / ".env").write_text(SECRET, encoding="utf-8")
    tools, requests, _ = gated(tmp_path, home)
    for command in ("cd && cat .e*", "cd ~ && cat .en?", "cd; cat .[e]nv", "cd - && cat .e*"):
        call = ToolCall(id="c", name="bash", arguments={"command": command})
        result = await tools.execute(call, ctx())
        assert "sk-planted-secret" not in result.content, command
    assert len(requests) == 4


async def test_writes_inside_the_workspace_still_run_unasked(tmp_path: Path, home: Path) -> None:
    tools, requests, ws = gated(tmp_path, home)
    for command in (
        "cp a.txt b.txt",
        "echo x | tee out.txt > /dev/null",
        "mkdir -p sub && cd sub && touch c.txt",
        "ls > /dev/null 2>&1",
    ):
        call = ToolCall(id="c", name="bash", arguments={"command": command})
        result = await tools.execute(call, ctx())
        assert not result.is_error, (command, result.content)
    assert requests == []
    assert (ws / "b.txt").exists() and (ws / "out.txt").exists() and (ws / "sub/c.txt").exists()


@pytest.mark.parametrize("command", REACH)
async def test_deletes_reaching_system_files_are_blocked_under_a_star_rule(
    tmp_path: Path, home: Path, command: str
) -> None:
    setup = make(tmp_path, home, rules=STAR)
    call = ToolCall(id="c", name="bash", arguments={"command": command})
    decision = await setup.sandbox.decide(BASH, call, ctx(), dry_run=True)
    assert (decision.outcome, decision.reason) == ("block", "dangerous"), command
    assert setup.human.requests == []
