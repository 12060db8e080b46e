"""The opt-in "no prompt for a confined command" mode: what runs unasked, what still asks, and
that the gate's own checks come first."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.core.config import SecuritySettings
from jarvis.core.confine.auto_allow import confined_call, confined_line, sandboxed_allow
from jarvis.core.policy.boundary import Boundary
from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.sandbox import Sandbox
from jarvis.model_layer import ToolCall
from tests.integration.gate.test_decide import TOOLS, FixedClock

WS, HOME = "/home/u/proj", "/home/u"


@pytest.mark.parametrize(
    "command",
    [
        "pytest -q",
        "python -m pytest tests/unit -x",
        "git status && git diff --stat",
        "git add -A && git commit -m 'fix'",
        "grep -rn TODO src | head -20",
        "make build",
        "cargo build --release",
        "npm test",
        "ls -la src/",
        "cat README.md",
        "sort data.txt > /tmp/sorted",
        "cp src/a.py src/b.py",
        "cd src && ls",
        "find . -name '*.py' | wc -l",
        "cat /etc/os-release",  # reads outside: the system is read-only, secrets hidden
    ],
)
def test_confined_lines_run_unasked(command: str) -> None:
    assert confined_line(command, Boundary(WS, HOME))


@pytest.mark.parametrize(
    "command",
    [
        "curl https://example.com",  # network
        "git push origin main",
        "pip install requests",
        "cat < /dev/tcp/1.2.3.4/80",
        "rm -rf build",  # destructive
        "echo done > build/log.txt",  # overwrites a file
        "git reset --hard HEAD~1",
        "sed -i s/a/b/ file",
        "cat ~/.ssh/id_rsa",  # secret
        "cat .env",
        "echo x > ~/.bashrc",  # writes outside
        "cp a.txt ../elsewhere/",
        "cp a.txt /etc/",
        "cd .. && ls",
        "sudo ls",  # leaves the sandbox
        "docker ps",
        'eval "$(cat script)"',  # not understood
        "echo \u202eevil",  # invisible formatting
    ],
)
def test_everything_else_still_asks(command: str) -> None:
    assert not confined_line(command, Boundary(WS, HOME))


def test_only_bash_and_only_a_command() -> None:
    boundary = Boundary(WS, HOME)
    assert confined_call("bash", {"command": "ls"}, boundary)
    assert not confined_call("write_file", {"command": "ls"}, boundary)
    assert not confined_call("bash", {"command": 3}, boundary)


def test_off_by_default_and_only_with_a_working_sandbox(tmp_path: Path) -> None:
    assert sandboxed_allow(SecuritySettings(), tmp_path) is None
    off = SecuritySettings(sandbox="off", sandbox_auto_allow=True)
    assert sandboxed_allow(off, tmp_path) is None


def gate(tmp_path: Path, rules: str | None = None, unattended: bool = False) -> Sandbox:
    ws, data = tmp_path / "ws", tmp_path / "data"
    ws.mkdir()
    data.mkdir()
    if rules is not None:
        (data / "approvals.yaml").write_text(rules)
    return Sandbox(
        settings=SecuritySettings(),
        rules=RuleStore(data),
        approvals=None,  # nobody answers: what would ask is denied `no_approver`
        workspace=ws,
        clock=FixedClock(),
        unattended=unattended,
        user_home=tmp_path,
        jarvis_home=data,
        confined=confined_call,
    )


async def decide(sandbox: Sandbox, command: str) -> tuple[str, str]:
    call = ToolCall(id="c", name="bash", arguments={"command": command})
    ctx = ToolCallContext("s1", "main", 1, asyncio.Event())
    decision = await sandbox.decide(TOOLS["bash"], call, ctx)
    return decision.outcome, decision.reason


async def test_at_the_gate(tmp_path: Path) -> None:
    g = gate(tmp_path)
    assert await decide(g, "pytest -q") == ("allow", "sandboxed")
    assert await decide(g, "curl https://example.com") == ("deny", "no_approver")
    assert await decide(g, "rm -rf build") == ("deny", "no_approver")
    assert (await decide(g, "rm -rf /"))[0] == "block"  # dangerous comes first


async def test_a_deny_rule_still_blocks(tmp_path: Path) -> None:
    g = gate(tmp_path, "rules:\n  - {tool: bash, pattern: 'make install', action: deny}\n")
    assert (await decide(g, "make install"))[0] == "block"
    assert await decide(g, "make build") == ("allow", "sandboxed")


async def test_a_rule_file_that_did_not_load_asks(tmp_path: Path) -> None:
    g = gate(tmp_path, "rules: [[[\n")
    assert await decide(g, "pytest -q") != ("allow", "sandboxed")


async def test_unattended_runs_are_not_widened(tmp_path: Path) -> None:
    g = gate(tmp_path, unattended=True)
    assert await decide(g, "pytest -q") == ("deny", "approval_unavailable")
