"""The per-program table of the argument policy (see `argv_policy` for how it is applied):
for each program, the flags that make it run other code, write files or reach outside the
workspace, and judges for programs whose positional words matter (`find` start paths, `sed` and
`awk` scripts, `git config` keys, `pytest` paths). Sources: Codex's `is_safe_command.rs` and
exec policy, the programs' manuals, and published agent sandbox escapes.

API: `POLICIES` (program basename -> `ProgramPolicy`), `Refusal`, `Reason`, `CONSENTABLE`,
`is_outside_workspace(path)`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from jarvis.core.policy.program_scripts import (
    awk_program_refusal,
    runs_code_when_set,
    sed_script_refusal,
)

Reason = Literal["wrapper", "inline_code", "runs_code", "writes_file", "outside_workspace"]
CONSENTABLE: frozenset[Reason] = frozenset({"writes_file", "outside_workspace"})

RUNS: Reason = "runs_code"
WRITES: Reason = "writes_file"
INLINE: Reason = "inline_code"


@dataclass(frozen=True, slots=True)
class Refusal:
    reason: Reason
    word: str  # the argument that made the refusal
    position: int  # its index in the argv


Judge = Callable[[tuple[str, ...]], "Refusal | None"]


@dataclass(frozen=True)
class ProgramPolicy:
    """One program's row. `flags` apply anywhere before `--`; `global_flags` only before the
    first positional word (the subcommand); `subcommands` maps a subcommand to its own flags;
    `path_flags` take a path that must stay in the workspace; `judge` sees the whole argv."""

    flags: Mapping[str, Reason] = field(default_factory=dict)
    global_flags: Mapping[str, Reason] = field(default_factory=dict)
    subcommands: Mapping[str, Mapping[str, Reason]] = field(default_factory=dict)
    path_flags: frozenset[str] = frozenset()
    valued: frozenset[str] = frozenset()  # global flags whose value is the next word (`-C dir`)
    clusters: bool = True  # short options combine (`-avz`); False for `find`, `go`, `pwsh`
    judge: Judge | None = None


def is_outside_workspace(path: str) -> bool:
    """Lexically: absolute, from `~`, climbing with `..`, or not knowable (an expansion)."""
    if not path:
        return False
    parts = path.split("/")
    return path.startswith(("/", "~")) or ".." in parts or "$" in path or "`" in path


def _find(argv: tuple[str, ...]) -> Refusal | None:
    starting = True
    for index, word in enumerate(argv[1:], start=1):
        if starting and word.startswith(("-", "(", "!", ",")) and word not in ("-H", "-L", "-P"):
            starting = False
        if starting and word not in ("-H", "-L", "-P") and is_outside_workspace(word):
            return Refusal("outside_workspace", word, index)
        if word in ("-exec", "-execdir", "-ok", "-okdir"):
            return Refusal("wrapper", word, index)
        if word == "-delete" or word.startswith("-fprint") or word == "-fls":
            return Refusal(WRITES, word, index)
    return None


def _sed(argv: tuple[str, ...]) -> Refusal | None:
    if "--sandbox" in argv:
        return None  # GNU sed then refuses e, w and r itself
    script_given = False
    index = 1
    while index < len(argv):
        word = argv[index]
        if word in ("-e", "--expression") and index + 1 < len(argv):
            script_given, index = True, index + 1
            word = argv[index]
        elif word.startswith("--expression="):
            script_given, word = True, word.split("=", 1)[1]
        elif word in ("-f", "--file") or word.startswith("--file="):
            return Refusal(RUNS, word, index)  # a script file: not visible here
        elif word.startswith("-") or script_given:
            index += 1
            continue
        else:
            script_given = True
        reason = sed_script_refusal(word)
        if reason is not None:
            return Refusal(reason, word, index)
        index += 1
    return None


def _awk(argv: tuple[str, ...]) -> Refusal | None:
    index = 1
    while index < len(argv):
        word = argv[index]
        if word in ("-F", "-v", "--field-separator", "--assign"):
            index += 2
            continue
        if word.startswith(("-f", "--file", "-E", "--exec", "-l", "--load", "-i", "--include")):
            return Refusal(RUNS, word, index)
        if word in ("-e", "--source") and index + 1 < len(argv):
            index += 1
            word = argv[index]
        elif word.startswith(("-o", "--pretty-print", "-p", "--profile", "-d", "--dump")):
            return Refusal(WRITES, word, index)
        elif word.startswith("-"):
            index += 1
            continue
        reason = awk_program_refusal(word)
        return None if reason is None else Refusal(reason, word, index)
    return None


def _config_keys(program: str, verbs: frozenset[str]) -> Judge:
    """`git config core.pager x`, `npm config set script-shell x`: keys whose value runs."""

    def judge(argv: tuple[str, ...]) -> Refusal | None:
        positional = _positionals(argv, _GIT_VALUED)
        verb = next((n for n, (_, word) in enumerate(positional) if word in verbs), None)
        if verb is None:
            return None
        for index, word in positional[verb + 1 :]:
            if runs_code_when_set(program, word.split("=", 1)[0]):
                return Refusal(RUNS, word, index)
        return None

    return judge


def _git(argv: tuple[str, ...]) -> Refusal | None:
    positional = _positionals(argv, _GIT_VALUED)
    for number, (index, word) in enumerate(positional):
        after = positional[number + 1][1] if number + 1 < len(positional) else ""
        if (word, after) in (("submodule", "foreach"), ("bisect", "run")):
            return Refusal(RUNS, f"{word} {after}", index)
        if word == "filter-branch":
            return Refusal(RUNS, word, index)
    return _config_keys("git", frozenset({"config"}))(argv)


def _positionals(argv: tuple[str, ...], valued: frozenset[str]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    index = 1
    while index < len(argv):
        word = argv[index]
        if word in valued:
            index += 2
            continue
        if not word.startswith("-"):
            found.append((index, word))
        index += 1
    return found


def _pytest(argv: tuple[str, ...]) -> Refusal | None:
    for index, word in enumerate(argv[1:], start=1):
        if not word.startswith("-") and is_outside_workspace(word.split("::", 1)[0]):
            return Refusal("outside_workspace", word, index)  # its conftest.py would run
    return None


def _make(argv: tuple[str, ...]) -> Refusal | None:
    for index, word in enumerate(argv[1:], start=1):
        if word.startswith(("SHELL=", ".SHELLFLAGS=", "MAKESHELL=")):
            return Refusal(RUNS, word, index)  # make runs every recipe with that shell
    return None


def _tmux(argv: tuple[str, ...]) -> Refusal | None:
    for index, word in enumerate(argv[1:], start=1):
        if word in _TMUX_RUNNING:
            return Refusal(RUNS, word, index)
    return None


_GIT_VALUED = frozenset(
    {"-c", "-C", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"}
)
_GIT_GLOBAL: Mapping[str, Reason] = {
    "-c": RUNS, "--config-env": RUNS, "--exec-path": RUNS, "--git-dir": RUNS,
    "--work-tree": RUNS, "--namespace": RUNS, "--super-prefix": RUNS,
}  # fmt: skip
_GIT_DIFF: Mapping[str, Reason] = {"--ext-diff": RUNS, "--textconv": RUNS, "--output": WRITES}
_GIT_SUBCOMMANDS: Mapping[str, Mapping[str, Reason]] = {
    "diff": _GIT_DIFF, "log": _GIT_DIFF, "show": _GIT_DIFF, "whatchanged": _GIT_DIFF,
    "format-patch": {**_GIT_DIFF, "-o": WRITES, "--output-directory": WRITES},
    "grep": {"-O": RUNS, "--open-files-in-pager": RUNS, "--ext-grep": RUNS},
    "clone": {"-c": RUNS, "--config": RUNS, "-u": RUNS, "--upload-pack": RUNS, "--template": RUNS},
    "init": {"--template": RUNS},
    "fetch": {"--upload-pack": RUNS}, "pull": {"--upload-pack": RUNS},
    "ls-remote": {"-u": RUNS, "--upload-pack": RUNS},
    "push": {"--receive-pack": RUNS, "--exec": RUNS},
    "archive": {"--exec": RUNS, "-o": WRITES, "--output": WRITES},
    "rebase": {"-x": RUNS, "--exec": RUNS},
    "difftool": {"-x": RUNS, "--extcmd": RUNS},
    "config": {"-e": RUNS, "--edit": RUNS},
    "send-email": {
        "--sendmail-cmd": RUNS, "--smtp-server": RUNS, "--to-cmd": RUNS, "--cc-cmd": RUNS,
    },
}  # fmt: skip
_NPM_CONFIG = _config_keys("npm", frozenset({"config", "set"}))
_NODE_PACKAGE_FLAGS: Mapping[str, Reason] = {
    "--script-shell": RUNS, "--node-options": RUNS, "-c": RUNS, "--call": RUNS, "--shell": RUNS,
    "--userconfig": RUNS, "--globalconfig": RUNS, "--init-module": RUNS, "--onload-script": RUNS,
}  # fmt: skip
_SSH_FLAGS: Mapping[str, Reason] = {"-o": RUNS, "-F": RUNS, "-S": RUNS, "-D": RUNS}
_PAGER_FLAGS: Mapping[str, Reason] = {
    "+": RUNS, "-o": WRITES, "-O": WRITES, "--log-file": WRITES, "--LOG-FILE": WRITES,
    "-k": RUNS, "--lesskey-file": RUNS, "--lesskey-src": RUNS,
}  # fmt: skip
_EDITOR_FLAGS: Mapping[str, Reason] = {"+": RUNS, "-c": RUNS, "--cmd": RUNS, "-S": RUNS}

POLICIES: Mapping[str, ProgramPolicy] = {
    "git": ProgramPolicy(
        global_flags=_GIT_GLOBAL, subcommands=_GIT_SUBCOMMANDS, path_flags=frozenset({"-C"}),
        valued=_GIT_VALUED, judge=_git,
    ),
    "npm": ProgramPolicy(flags=_NODE_PACKAGE_FLAGS, judge=_NPM_CONFIG),
    "npx": ProgramPolicy(flags=_NODE_PACKAGE_FLAGS),
    "pnpm": ProgramPolicy(flags=_NODE_PACKAGE_FLAGS, judge=_NPM_CONFIG),
    "yarn": ProgramPolicy(flags=_NODE_PACKAGE_FLAGS, judge=_NPM_CONFIG),
    "pytest": ProgramPolicy(
        flags={
            "-p": RUNS, "-o": RUNS, "--override-ini": RUNS, "--pdbcls": RUNS, "--tx": RUNS,
            "--basetemp": WRITES, "--junitxml": WRITES, "--junit-xml": WRITES,
            "--resultlog": WRITES,
        },
        path_flags=frozenset({"-c", "--config-file", "--rootdir", "--confcutdir"}),
        judge=_pytest,
    ),
    "find": ProgramPolicy(clusters=False, judge=_find),
    "sed": ProgramPolicy(flags={"-i": WRITES, "--in-place": WRITES}, judge=_sed),
    "gsed": ProgramPolicy(flags={"-i": WRITES, "--in-place": WRITES}, judge=_sed),
    "awk": ProgramPolicy(judge=_awk), "gawk": ProgramPolicy(judge=_awk),
    "mawk": ProgramPolicy(judge=_awk), "nawk": ProgramPolicy(judge=_awk),
    "tar": ProgramPolicy(
        flags={
            "--to-command": RUNS, "--checkpoint-action": RUNS, "--use-compress-program": RUNS,
            "-I": RUNS, "--info-script": RUNS, "--new-volume-script": RUNS, "-F": RUNS,
            "--rsh-command": RUNS, "--rmt-command": RUNS, "-P": WRITES, "--absolute-names": WRITES,
        },
        path_flags=frozenset({"-C", "--directory"}),
    ),
    "rsync": ProgramPolicy(flags={"-e": RUNS, "--rsh": RUNS, "--rsync-path": RUNS}),
    "ssh": ProgramPolicy(flags=_SSH_FLAGS), "scp": ProgramPolicy(flags=_SSH_FLAGS),
    "sftp": ProgramPolicy(flags=_SSH_FLAGS),
    "less": ProgramPolicy(flags=_PAGER_FLAGS), "more": ProgramPolicy(flags=_PAGER_FLAGS),
    "man": ProgramPolicy(flags={"-P": RUNS, "--pager": RUNS, "-H": RUNS, "--html": RUNS}),
    "rg": ProgramPolicy(
        flags={"--pre": RUNS, "--hostname-bin": RUNS, "-z": RUNS, "--search-zip": RUNS}
    ),
    "sort": ProgramPolicy(flags={"-o": WRITES, "--output": WRITES, "--compress-program": RUNS}),
    "make": ProgramPolicy(
        flags={"--eval": RUNS, "-E": RUNS},
        path_flags=frozenset({"-C", "--directory", "-f", "--file", "--makefile"}),
        judge=_make,
    ),
    "cargo": ProgramPolicy(flags={"--config": RUNS}),
    "go": ProgramPolicy(flags={"-toolexec": RUNS, "-exec": RUNS}, clusters=False),
    "curl": ProgramPolicy(
        flags={"-o": WRITES, "--output": WRITES, "-K": RUNS, "--config": RUNS},
        path_flags=frozenset({"--output-dir"}),
    ),
    "wget": ProgramPolicy(
        flags={"-O": WRITES, "--output-document": WRITES, "-e": RUNS, "--execute": RUNS},
        path_flags=frozenset({"-P", "--directory-prefix"}),
    ),
    "zip": ProgramPolicy(flags={"-T": RUNS, "-TT": RUNS, "--unzip-command": RUNS}),
    "yq": ProgramPolicy(flags={"-i": WRITES, "--inplace": WRITES}),
    "vim": ProgramPolicy(flags=_EDITOR_FLAGS), "nvim": ProgramPolicy(flags=_EDITOR_FLAGS),
    "vi": ProgramPolicy(flags=_EDITOR_FLAGS), "ex": ProgramPolicy(flags=_EDITOR_FLAGS),
    "emacs": ProgramPolicy(
        flags={"--eval": RUNS, "-l": RUNS, "--load": RUNS, "-f": RUNS, "--funcall": RUNS}
    ),
    "script": ProgramPolicy(flags={"-c": RUNS, "--command": RUNS}),
    "tmux": ProgramPolicy(judge=_tmux),
}  # fmt: skip
_TMUX_RUNNING = frozenset(
    {
        "run-shell", "run", "new-session", "new", "new-window", "neww", "split-window",
        "splitw", "send-keys", "send", "respawn-pane", "respawnp", "respawn-window", "respawnw",
        "if-shell", "if", "pipe-pane", "pipep", "source-file", "source",
    }
)  # fmt: skip
