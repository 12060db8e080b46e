"""git aliases from config files (issue 23): the gate's reading of git's configuration against
git's own, `git config --get-regexp '^alias\\.'` run in the same place with the same
environment. Seeded alias definitions in every file git reads (system via
`GIT_CONFIG_SYSTEM`, `$XDG_CONFIG_HOME/git/config`, `~/.gitconfig`, the repository's config,
a linked worktree's, an `include.path`, `GIT_CONFIG_COUNT`/`GIT_CONFIG_PARAMETERS`), written
with the syntax git accepts (case, quotes, escapes, comments, continuations, old-style
subsections)."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

from jarvis.core.policy.git_aliases import BUILTINS, _aliases, _git_dirs

SEED = int(os.environ.get("JARVIS_DIFFERENTIAL_SEED", "20261205"))
SPELLINGS = [
    "\t{name} = {value}\n",
    "  {Name}={value}   # a comment\n",
    '{name} = "{value}" ; another\n',
    "{name} = {head} \\\n {tail}\n",
    '{name} = "{head}"" {tail}"\n',
    "{NAME} = {value}\n",
]
VALUES = ["push", "push -f", "status -s", "!git push", "log --oneline", "send-pack x", "p"]


def config_text(pick: random.Random, names: list[str]) -> str:
    out = [pick.choice(["[alias]\n", "[Alias]\n", "[ALIAS]\n", "# x\n[alias]\n"])]
    for name in names:
        value = pick.choice(VALUES)
        head, _, tail = value.partition(" ")
        spelling = pick.choice(SPELLINGS if tail else SPELLINGS[:3] + SPELLINGS[5:])
        out.append(
            spelling.format(
                name=name, Name=name.capitalize(), NAME=name.upper(), value=value, head=head,
                tail=tail,
            )
        )  # fmt: skip
    out.append('[core]\n\tbare = false\n[remote "origin"]\n\turl = x\n')
    return "".join(out)


def git_says(cwd: Path, env: dict[str, str]) -> dict[str, str]:
    done = subprocess.run(
        ["git", "config", "--get-regexp", r"^alias\."],
        cwd=cwd, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    found: dict[str, str] = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        found[key.removeprefix("alias.")] = value
    return found


@pytest.mark.parametrize("round_", range(12))
def test_the_gate_reads_the_aliases_git_reads(tmp_path: Path, round_: int) -> None:
    pick = random.Random(SEED + round_)
    home, xdg, repo = tmp_path / "home", tmp_path / "xdg", tmp_path / "repo"
    (xdg / "git").mkdir(parents=True)
    home.mkdir()
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_CONFIG_HOME": str(xdg)}
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    pool = [f"a{i}" for i in range(10)]
    files = {
        tmp_path / "system": pick.sample(pool, 3),
        xdg / "git" / "config": pick.sample(pool, 3),
        home / ".gitconfig": pick.sample(pool, 3),
        tmp_path / "included": pick.sample(pool, 2),
    }
    for path, names in files.items():
        path.write_text(config_text(pick, names), encoding="utf-8")
    with (home / ".gitconfig").open("a", encoding="utf-8") as handle:
        handle.write(f"[include]\n\tpath = {tmp_path / 'included'}\n")
    with (repo / ".git" / "config").open("a", encoding="utf-8") as handle:
        handle.write(config_text(pick, pick.sample(pool, 3)))
    env["GIT_CONFIG_SYSTEM"] = str(tmp_path / "system")
    if round_ % 2:
        env |= {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "alias.a1",
            "GIT_CONFIG_VALUE_0": "push",
        }
    if round_ % 3 == 0:
        env["GIT_CONFIG_PARAMETERS"] = "'alias.a2'='status' 'Alias.A3'='!git push'"
    cwd = repo
    if round_ % 4 == 1:  # a linked worktree: `.git` is a file naming its git dir
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-q",
             "--allow-empty", "-m", "x"],
            cwd=repo, check=True, env=env,
        )  # fmt: skip
        subprocess.run(
            ["git", "worktree", "add", "-q", str(tmp_path / "wt")], cwd=repo, check=True, env=env
        )
        cwd = tmp_path / "wt"
    (cwd / "sub").mkdir()
    expected = git_says(cwd / "sub", env)
    config = _aliases([str(cwd / "sub")], (), (), env, str(home))
    assert not config.unreadable
    assert len(expected) >= 3 and any(" " in value for value in expected.values())
    assert dict(config.aliases) == expected
    assert _git_dirs(str(cwd / "sub"))


def test_builtins_are_git_builtins() -> None:
    done = subprocess.run(
        ["git", "--list-cmds=builtins"], capture_output=True, text=True, check=True
    )
    assert set(done.stdout.split()) >= BUILTINS
