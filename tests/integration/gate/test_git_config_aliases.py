"""git aliases from config files, end to end (issue 23): a shared `git push` deny rule and a
`git` ALWAYS rule, the real gate and bash tool, a local bare repository as the remote. Each
alias that expands to a push — defined in the repository's config, `~/.gitconfig`,
`~/.config/git/config`, by `GIT_CONFIG_*` in the line, through another alias or a `!` shell
alias — is blocked and the remote gets nothing; run by bash itself, each one pushes."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.core.tools.builtins import builtin_tools
from jarvis.model_layer import ToolCall
from tests.integration.gate.test_decide import ctx, make
from tests.integration.gate.test_global_options_push import (
    ALWAYS_GIT,
    all_blocked,
    bash,
    git,
)
from tests.integration.gate.test_global_options_push import workspace as workspace

BASH = next(tool for tool in builtin_tools() if tool.name == "bash")
PUSHES = [
    "git p origin HEAD:refs/heads/p",
    "git pp origin HEAD:refs/heads/pp",
    "git -C sub p origin HEAD:refs/heads/c",
    "git gp",
    "git xp",
    "git sp",
    "env git gp",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0=push git q origin HEAD:q",
    "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.e GIT_CONFIG_VALUE_0=push; git e origin",
]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "home"
    (path / ".config" / "git").mkdir(parents=True)
    (path / ".gitconfig").write_text(
        "[alias]\n\tgp = push origin HEAD:refs/heads/gp\n", encoding="utf-8"
    )
    (path / ".config" / "git" / "config").write_text(
        '[Alias]\n  XP = "push" origin HEAD:refs/heads/xp # comment\n', encoding="utf-8"
    )
    monkeypatch.setenv("HOME", str(path))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_DIR"):
        monkeypatch.delenv(name, raising=False)
    return path


def configure(work: Path) -> None:
    (work / "sub").mkdir()
    for name, value in (
        ("p", "push"), ("pp", "p"), ("st", "status"), ("sp", "!git push origin HEAD:refs/heads/sp"),
    ):  # fmt: skip
        git("config", f"alias.{name}", value, cwd=work)


async def test_aliases_from_config_files_that_push_are_blocked(
    workspace: tuple[Path, Path], home: Path
) -> None:
    work, remote = workspace
    configure(work)
    tools = await all_blocked(work, remote, PUSHES)
    status = ToolCall(id="s", name="bash", arguments={"command": "git st --short"})
    assert not (await tools.execute(status, ctx())).is_error  # git status: the rule covers it
    for command in PUSHES:  # the same lines, run by bash itself: each one pushes
        bash(command, cwd=work)
        refs = git("for-each-ref", "--format=%(refname)", cwd=remote).split()
        assert refs, command
        for ref in refs:
            git("update-ref", "-d", ref, cwd=remote)


@pytest.mark.parametrize(
    ("config", "command", "rules"),
    [
        ("", "git p", "rules:\n  - {tool: bash, pattern: git p}\n"),  # p is push, not `p`
        ("", "git sp", ALWAYS_GIT),  # a shell alias runs a script
        ("", "git nosuch", ALWAYS_GIT),  # neither builtin, alias nor program
        ("", "git -c include.path=../x st", ALWAYS_GIT),  # an include the gate does not follow
        ('[includeIf "gitdir:/nowhere/"]\n\tpath = x\n', "git st", ALWAYS_GIT),
        ('[include]\n\tpath = missing-but-fine\n[alias]\n\tbad = "open\n', "git st", ALWAYS_GIT),
    ],
)
async def test_an_alias_the_gate_cannot_vouch_for_asks(
    workspace: tuple[Path, Path], home: Path, config: str, command: str, rules: str
) -> None:
    work, _ = workspace
    configure(work)
    with (home / ".gitconfig").open("a", encoding="utf-8") as handle:
        handle.write(config)
    sandbox, _ = make(work, agent_rules=rules)
    call = ToolCall(id="c", name="bash", arguments={"command": command})
    decision = await sandbox.decide(BASH, call, ctx(), dry_run=True)
    assert decision.outcome == "ask", (command, decision)


async def test_an_alias_to_a_covered_subcommand_runs(
    workspace: tuple[Path, Path], home: Path
) -> None:
    work, _ = workspace
    configure(work)
    sandbox, _ = make(work, agent_rules="rules:\n  - {tool: bash, pattern: git status}\n")
    call = ToolCall(id="c", name="bash", arguments={"command": "git st -s"})
    decision = await sandbox.decide(BASH, call, ctx(), dry_run=True)
    assert decision.outcome == "allow", decision
