"""The hole of issue 23 item 2, end to end: a shared `git push` deny rule, a `git` ALWAYS rule,
the real gate, the real bash tool and a local bare repository as the remote. Every spelling of a
push with git's global options is blocked, and the remote never receives a commit; the allowed
git commands still run."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from jarvis.core.approvals.audit import AuditLog
from jarvis.core.policy.gate import Gate
from jarvis.core.policy.sandbox import Sandbox
from jarvis.core.tools.builtins import builtin_tools
from jarvis.core.tools.executor import GatedTools
from jarvis.core.tools.registry import ToolRegistry
from jarvis.model_layer import ToolCall
from tests.integration.gate.test_decide import ctx, make

SHARED = "rules:\n  - {tool: bash, pattern: git push, action: deny}\n"
ALWAYS_GIT = "rules:\n  - {tool: bash, pattern: git}\n"
PUSHES = [
    "git --no-pager push", "git -P push", "git -C . push", "git -p push",
    "git --no-optional-locks push", "git --literal-pathspecs push", "git --git-dir=.git push",
    "git --work-tree . push", "git --namespace x push origin HEAD:refs/heads/main",
    "git -c alias.p=push p", "git -P -C . --no-pager push origin HEAD:main",
    "/usr/lib/git-core/git-push", "git --exec-path=/usr/lib/git-core push",
]  # fmt: skip


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


def gated(sandbox: Sandbox, work: Path) -> tuple[ToolRegistry, GatedTools]:
    registry = ToolRegistry()
    for tool in builtin_tools():
        registry.register(tool)
    return registry, GatedTools(registry, work, Gate(sandbox, AuditLog(), "en"))


async def all_blocked(work: Path, remote: Path, commands: list[str]) -> GatedTools:
    """Under the shared push deny rule and a `git` ALWAYS rule, each line is blocked through
    the real gate and bash tool, nobody is asked and the remote gets nothing."""
    sandbox, human = make(work, rules=SHARED, agent_rules=ALWAYS_GIT)
    _, tools = gated(sandbox, work)
    for command in commands:
        call = ToolCall(id="c", name="bash", arguments={"command": command})
        result = await tools.execute(call, ctx())
        assert result.is_error and result.content.startswith("blocked"), (command, result)
    assert git("for-each-ref", cwd=remote) == "" and human.requests == []
    return tools


def bash(command: str, cwd: Path) -> None:
    subprocess.run(["bash", "-c", command], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, Path]:
    remote, work = tmp_path / "remote.git", tmp_path / "work"
    git("init", "-q", "--bare", str(remote), cwd=tmp_path)
    git("init", "-q", "-b", "main", str(work), cwd=tmp_path)
    for args in (
        ("config", "user.email", "t@example.invalid"), ("config", "user.name", "t"),
        ("config", "push.default", "current"), ("remote", "add", "origin", str(remote)),
        ("commit", "-q", "--allow-empty", "-m", "one"),
    ):  # fmt: skip
        git(*args, cwd=work)
    return work, remote


async def test_every_spelling_of_a_push_is_blocked_and_nothing_reaches_the_remote(
    workspace: tuple[Path, Path],
) -> None:
    work, remote = workspace
    tools = await all_blocked(work, remote, PUSHES)
    status = await tools.execute(
        ToolCall(id="s", name="bash", arguments={"command": "git -P status --short"}), ctx()
    )
    assert not status.is_error and "exit code: 0" in status.content.lower(), status.content
    # the same spellings without the allow rule: still blocked, not asked
    (work.parent / "other").mkdir()
    bare, asked = make(work.parent / "other", rules=SHARED)
    tool = next(tool for tool in builtin_tools() if tool.name == "bash")
    for command in PUSHES:
        call = ToolCall(id="c", name="bash", arguments={"command": command})
        assert (await bare.decide(tool, call, ctx())).outcome == "block", command
    assert asked.requests == []


# Other commands that push (`program_globals` spellings): each one really pushes when bash runs
# it, and the gate blocks it under the shared `git push` deny rule and a `git` ALWAYS rule.
OTHER_PUSHES = [
    "git send-pack ../remote.git HEAD:refs/heads/sp",
    "git -P send-pack ../remote.git HEAD:refs/heads/sp2",
    "/usr/lib/git-core/git-send-pack ../remote.git HEAD:refs/heads/sp3",
    "git -c remote.origin.pushurl=../remote.git push origin HEAD:refs/heads/pu",
    "git -c alias.sp=send-pack sp ../remote.git HEAD:refs/heads/al",
]


async def test_other_commands_that_push_are_blocked_and_really_push_without_the_gate(
    workspace: tuple[Path, Path],
) -> None:
    work, remote = workspace
    await all_blocked(work, remote, OTHER_PUSHES)
    for command in OTHER_PUSHES:  # the same lines, run by bash itself: each is a push
        before = git("for-each-ref", cwd=remote)
        bash(command, cwd=work)
        assert git("for-each-ref", cwd=remote) != before, command
