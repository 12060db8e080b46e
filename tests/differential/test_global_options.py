"""Global options against the real programs (issue 23 item 2): for each program in
`program_globals`, seeded permutations of its global options in front of a denied and an allowed
subcommand, run by the real program in a scratch place, which reports the subcommand it ran:
- git (`GIT_TRACE`: `trace: built-in: git <sub>`), with a local bare repository as the remote,
  so a push really pushes;
- npm (a stub package.json whose scripts record `$npm_command`; `publish` runs its
  `prepublishOnly` script, which records and fails, under `--dry-run` in the environment);
- docker and kubectl (`<sub> --help` prints `Usage: docker <sub>`: their own parser chose it);
- python (`-m calendar 2001` prints the year).
Checked: whenever the program ran the denied subcommand, the deny rule blocks the line; whenever
the canonical form is exact, its subcommand is the one the program ran. docker and kubectl are
not in CI: there the answers recorded from docker 28.2.2 and kubectl 1.32.4 are checked instead.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from jarvis.core.policy.canonical import canonical_command
from jarvis.core.policy.rules import Rule, RuleSet, match_shell_rules
from jarvis.core.policy.shell import analyze_shell
from tests.support.hang import HANG_GUARD_SEC

SEED = int(os.environ.get("JARVIS_DIFFERENTIAL_SEED", "20261204"))
_CI = os.environ.get("CI") == "true"

GIT_OPTIONS: list[tuple[str, ...]] = [
    ("-P",), ("--no-pager",), ("-p",), ("--paginate",), ("-C", "."), ("-C", "sub"),
    ("-c", "x.y=z"), ("--git-dir=.git",), ("--git-dir", ".git"), ("--work-tree=.",),
    ("--work-tree", "."), ("--namespace=ns",), ("--namespace", "ns"), ("--no-optional-locks",),
    ("--exec-path=/usr/lib/git-core",), ("--literal-pathspecs",), ("--no-literal-pathspecs",),
    ("--glob-pathspecs",), ("--noglob-pathspecs",), ("--icase-pathspecs",),
    ("--no-replace-objects",), ("--config-env=x.y=HOME",), ("--bogus",), ("-C.",),
    ("-cx.y=z",), ("--git-dir",), ("-C=.",), ("--",),
]  # fmt: skip
NPM_OPTIONS: list[tuple[str, ...]] = [
    ("--prefix", "."), ("--prefix=.",), ("-C", "."), ("--silent",), ("-s",), ("-d",),
    ("--loglevel", "warn"), ("--loglevel=warn",), ("--if-present",), ("--foreground-scripts",),
    ("--registry", "http://127.0.0.1:9"), ("--json",), ("--bogus",), ("--cache", "cache"),
]  # fmt: skip
DOCKER_OPTIONS: list[tuple[str, ...]] = [
    ("--config", "cfg"), ("--config=cfg",), ("-c", "default"), ("--context=default",),
    ("-D",), ("--debug",), ("-l", "warn"), ("-lwarn",), ("--log-level=warn",), ("--tls",),
    ("--tlscacert", "ca.pem"), ("--tlsverify",),
]  # fmt: skip
KUBECTL_OPTIONS: list[tuple[str, ...]] = [
    ("-n", "ns"), ("-nns",), ("--namespace=ns",), ("--namespace", "ns"), ("--context", "c"),
    ("--kubeconfig=k",), ("--cluster", "c"), ("-s", "http://x"), ("--request-timeout=1s",),
    ("-v", "0"), ("--insecure-skip-tls-verify",), ("--as", "u"), ("--cache-dir", "cache"),
]  # fmt: skip
PYTHON_OPTIONS: list[tuple[str, ...]] = [
    ("-B",), ("-E",), ("-s",), ("-u",), ("-O",), ("-OO",), ("-W", "ignore"), ("-Wignore",),
    ("-X", "dev"), ("-Xutf8",), ("-I",), ("-b",), ("-q",), ("-Bu",), ("-BW", "ignore"),
    ("--check-hash-based-pycs", "default"),
]  # fmt: skip


def permutations(options: list[tuple[str, ...]], count: int) -> list[tuple[str, ...]]:
    """Every option alone, then `count` seeded pairs and triples in random order."""
    pick = random.Random(SEED)
    found = list(options)
    for _ in range(count):
        chosen = pick.sample(options, pick.choice((2, 3)))
        found.append(tuple(itertools.chain.from_iterable(chosen)))
    return found


def denied(command: tuple[str, ...], rule: str, allow: str) -> bool:
    rules = RuleSet(
        [Rule(tool="bash", action="deny", pattern=rule), Rule(tool="bash", pattern=allow)]
    )
    line = shlex.join(command)
    return match_shell_rules(analyze_shell(line), rules, now_ms=0, fingerprint=None).outcome == (
        "deny"
    )


def check(command: tuple[str, ...], ran: str | None, deny: str, allow: str) -> None:
    deny_word = deny.split()[1]
    if ran == deny_word:
        assert denied(command, deny, allow), f"{shlex.join(command)} ran {ran} and was not denied"
    canon = canonical_command(command)
    if canon is not None and canon.exact and ran is not None:
        assert canon.argv[1] == ran, f"{shlex.join(command)}: program ran {ran}, canon {canon}"


# git


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("git")
    remote, work = root / "remote.git", root / "work"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    (work / "sub").mkdir()
    (work / "sub" / "a.txt").write_text("a\n")
    for args in (
        ["config", "user.email", "t@example.invalid"], ["config", "user.name", "t"],
        ["config", "push.default", "current"], ["remote", "add", "origin", str(remote)],
        ["add", "."], ["commit", "-qm", "one"],
    ):  # fmt: skip
        subprocess.run(["git", "-C", str(work), *args], check=True)
    return work


def git_ran(repo: Path, command: tuple[str, ...]) -> str | None:
    env = {**os.environ, "GIT_TRACE": "1", "GIT_PAGER": "cat", "PAGER": "cat", "HOME": str(repo)}
    done = subprocess.run(
        command, cwd=repo, env=env, capture_output=True, text=True, timeout=HANG_GUARD_SEC
    )
    found = re.search(r"trace: built-in: git (\S+)", done.stderr)
    return found.group(1) if found else None


GIT_CASES = [
    (options, sub) for options in permutations(GIT_OPTIONS, 60) for sub in ("push", "status")
]


def test_git_global_options_against_git(repo: Path) -> None:
    ran_push = 0
    for options, sub in GIT_CASES:
        command = ("git", *options, sub)
        ran = git_ran(repo, command)
        ran_push += ran == "push"
        check(command, ran, "git push", "git")
    assert ran_push > 40  # the permutations really pushed


# npm


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("npm")
    record = 'echo "$npm_command" >> ran.txt'
    scripts = {"test": record, "x": record, "prepublishOnly": record + "; exit 1"}
    (root / "package.json").write_text(
        json.dumps({"name": "p", "version": "1.0.0", "scripts": scripts})
    )
    return root


def npm_ran(package: Path, command: tuple[str, ...]) -> str | None:
    ran = package / "ran.txt"
    ran.unlink(missing_ok=True)
    env = {**os.environ, "npm_config_dry_run": "true", "npm_config_update_notifier": "false"}
    env["npm_config_cache"] = str(package / ".npm")
    subprocess.run(command, cwd=package, env=env, capture_output=True, timeout=HANG_GUARD_SEC)
    lines = ran.read_text().split() if ran.exists() else []
    return lines[0] if lines else None


def test_npm_global_options_against_npm(package: Path) -> None:
    if shutil.which("npm") is None:
        pytest.fail("npm is needed (.ci/run installs it)") if _CI else pytest.skip("no npm")
    cases = [(options, ("publish",)) for options in permutations(NPM_OPTIONS, 4)]
    others = (("test",), ("t",), ("publ",), ("run", "x"), ("run-script", "x"))
    cases += list(zip(NPM_OPTIONS[: len(others)], others, strict=True))
    ran_publish = 0
    for options, sub in cases:
        command = ("npm", *options, *sub)
        ran = npm_ran(package, command)
        ran_publish += ran == "publish"
        check(command, ran, "npm publish", "npm")
    assert ran_publish >= 12


# docker and kubectl: `--help` shows the subcommand their parser chose


def help_ran(command: tuple[str, ...], cwd: Path) -> str | None:
    done = subprocess.run(
        [*command, "--help"], cwd=cwd, capture_output=True, text=True, timeout=HANG_GUARD_SEC
    )
    found = re.search(rf"Usage:\s+{command[0]} (\S+)", done.stdout + done.stderr)
    return found.group(1) if found else None


@pytest.mark.parametrize(
    ("program", "options", "deny", "allowed"),
    [
        ("docker", DOCKER_OPTIONS, "push", "ps"),
        ("kubectl", KUBECTL_OPTIONS, "delete", "get"),
    ],
)
def test_cobra_global_options(
    program: str, options: list[tuple[str, ...]], deny: str, allowed: str, tmp_path: Path
) -> None:
    cases = [(o, s) for o in permutations(options, 20) for s in (deny, allowed)]
    real = shutil.which(program) is not None
    recorded = RECORDED[program]
    assert len(recorded) == len(cases)
    for (opts, sub), answer in zip(cases, recorded, strict=True):
        command = (program, *opts, sub)
        ran = help_ran(command, tmp_path) if real else answer
        assert ran == answer, f"{shlex.join(command)}: {program} ran {ran}, recorded {answer}"
        check(command, ran, f"{program} {deny}", program)


# what docker 28.2.2 and kubectl 1.32.4 ran for each case above, in order (seed 20261204)
# (every permutation ran the subcommand written after it)
RECORDED: dict[str, list[str | None]] = {
    "docker": ["push", "ps"] * 32,
    "kubectl": ["delete", "get"] * 33,
}


# python


def test_python_dash_m_against_python() -> None:
    for options in permutations(PYTHON_OPTIONS, 20):
        command = ("python3", *options, "-m", "calendar", "2001")
        done = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD_SEC)
        assert "2001" in done.stdout, command
        canon = canonical_command(command)
        assert canon is not None and canon.argv == ("calendar", "2001"), command
        assert denied(command, "calendar", "python3")
    inline = ("python3", "-c", "print('x')", "-m", "calendar")
    assert subprocess.run(inline, capture_output=True, text=True).stdout == "x\n"
    assert canonical_command(inline) is None
