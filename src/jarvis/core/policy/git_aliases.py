"""git aliases defined in config files, resolved the way git resolves them, so that `git p`
with `alias.p = push` in `.git/config` meets a `git push` deny rule (file system reads: this is
the edge; the matching stays in `rules.py`).

API: `git_expansions(command, workspace, home, environ) -> dict[int, GitExpansion]`, keyed by
the index of each simple command (or the command a wrapper runs: `env git p`) whose git
subcommand is not a builtin:
- `forms`: the argvs the alias expands to (`git push -f` for `git p -f`), a `!` alias's
  commands (`sh -c` script parsed), for deny rules and for the allow rule that must cover them;
- `direct`: git is the command itself: an allow rule must cover the forms in its place (a
  `git status` rule covers `git st` with `alias.st = status`; a `git p` rule does not cover
  `git p` with `alias.p = push`);
- `refusal`: why no allow rule may approve the command (`runs_code`): a `!` alias (a shell
  script), a subcommand that is neither a builtin, an alias nor a `git-<name>` program on the
  exec path or PATH, or a configuration the gate cannot read whole (an `includeIf` it does not
  follow, an `include.path` deeper than 10, a file that does not parse, an environment it
  cannot read).
Where git looks (git-config(1) "FILES", 2.39): `$GIT_CONFIG_SYSTEM` or `/etc/gitconfig` (unless
`GIT_CONFIG_NOSYSTEM`), `$GIT_CONFIG_GLOBAL` or `$XDG_CONFIG_HOME/git/config` (`~/.config`)
and `~/.gitconfig`, the repository's `config` (and `config.worktree`) found from the working
directory (`-C` applied, and every `cd` target in the line) or given by `--git-dir`/`GIT_DIR`,
then `GIT_CONFIG_PARAMETERS` / `GIT_CONFIG_COUNT` and `-c`. The environment is the gate's
own joined with the line's assignments (`X=1 git p`, `export X=1; git p`, `env X=1 git p`).
Aliases of aliases are followed (git refuses a loop; so does this: `runs_code`).
"""

from __future__ import annotations

import functools
import os
import posixpath
import shutil
from collections.abc import Mapping
from dataclasses import dataclass

from jarvis.core.policy.git_config import env_entries, parse_config
from jarvis.core.policy.programs import program_name
from jarvis.core.policy.shell import ShellAnalysis, analyze_shell
from jarvis.core.policy.shell_writes import directory_change
from jarvis.core.policy.unwrap import views

# git --list-cmds=builtins (2.39): never an alias (git runs the builtin)
_BUILTIN_NAMES = """
    add am annotate apply archive bisect--helper blame branch bugreport bundle cat-file
    check-attr check-ignore check-mailmap check-ref-format checkout checkout--worker
    checkout-index cherry cherry-pick clean clone column commit commit-graph commit-tree config
    count-objects credential credential-cache credential-cache--daemon credential-store
    describe diagnose diff diff-files diff-index diff-tree difftool env--helper fast-export
    fast-import fetch fetch-pack fmt-merge-msg for-each-ref for-each-repo format-patch fsck
    fsck-objects fsmonitor--daemon gc get-tar-commit-id grep hash-object help hook index-pack
    init init-db interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit
    maintenance merge merge-base merge-file merge-index merge-ours merge-recursive
    merge-recursive-ours merge-recursive-theirs merge-subtree merge-tree mktag mktree
    multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id pickaxe
    prune prune-packed pull push range-diff read-tree rebase receive-pack reflog remote
    remote-ext remote-fd repack replace rerere reset restore rev-list rev-parse revert rm
    send-pack shortlog show show-branch show-index show-ref sparse-checkout stage stash status
    stripspace submodule--helper switch symbolic-ref tag unpack-file unpack-objects
    update-index update-ref update-server-info upload-archive upload-archive--writer
    upload-pack var verify-commit verify-pack verify-tag version whatchanged worktree
    write-tree
"""
BUILTINS = frozenset(_BUILTIN_NAMES.split())
EXEC_PATH = "/usr/lib/git-core"
_ENV_NAMES = ("HOME", "XDG_CONFIG_HOME", "GIT_DIR", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_GLOBAL")
_INCLUDE_DEPTH = 10
_ALIAS_DEPTH = 16


@dataclass(frozen=True, slots=True)
class GitExpansion:
    forms: tuple[tuple[str, ...], ...] = ()
    refusal: str | None = None
    direct: bool = True  # git is the command itself (not behind a wrapper or assignments)


@dataclass(frozen=True, slots=True)
class _Config:
    aliases: Mapping[str, str]
    unreadable: bool


def git_expansions(
    command: str, workspace: str, home: str, environ: Mapping[str, str]
) -> dict[int, GitExpansion]:
    found: dict[int, GitExpansion] = {}
    candidates = _candidates(command)
    if not candidates:
        return found  # the hot path: no git command in the line that may name an alias
    analysis = analyze_shell(command)
    line_env = _line_assignments(analysis)
    cwds = _directories(analysis, workspace, home)
    for index, assigned, argv in candidates:
        env = {**environ, **line_env, **dict(_assigned(assigned))}
        expansion = _expand(argv, cwds, env, home)
        if expansion is not None and assigned:
            expansion = GitExpansion(expansion.forms, expansion.refusal, direct=False)
        if expansion is not None:
            found[index] = _merged(found.get(index), expansion)
    return found


@functools.lru_cache(maxsize=2048)
def _candidates(command: str) -> tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...]:
    """The pure part, cached per line: each git command (also behind a wrapper) whose
    subcommand is not a builtin, as (command index, the words before git that may assign
    variables, git's argv)."""
    found = []
    for index, simple in enumerate(analyze_shell(command).commands):
        if not any("git" in word for word in simple.argv[:8]):
            continue
        before = simple.words[: simple.assignments]
        for words, start in views(simple.argv):
            if program_name(words[start]) == "git" and _maybe_alias(words[start:]):
                found.append((index, (*before, *words[:start]), words[start:]))
    return tuple(found)


def _maybe_alias(argv: tuple[str, ...]) -> bool:
    _, at = _globals(argv)
    return at < len(argv) and argv[at] not in BUILTINS and not argv[at].startswith("-")


def _merged(old: GitExpansion | None, new: GitExpansion) -> GitExpansion:
    if old is None:
        return new
    return GitExpansion(
        (*old.forms, *new.forms), old.refusal or new.refusal, old.direct and new.direct
    )


def _expand(
    argv: tuple[str, ...], cwds: list[str], env: Mapping[str, str], home: str
) -> GitExpansion | None:
    globals_, at = _globals(argv)
    if at >= len(argv):
        return None
    name = argv[at]
    if name in BUILTINS or name.startswith("-"):
        return None
    places = [posixpath.join(cwd, directory) for cwd in cwds for directory in globals_.chdirs]
    config = _aliases(places or cwds, globals_.git_dirs, globals_.settings, env, home)
    forms: list[tuple[str, ...]] = []
    refusal = "runs_code" if config.unreadable else None
    rest = argv[at + 1 :]
    seen: set[str] = set()
    while name not in BUILTINS:
        value = config.aliases.get(name.lower())
        if value is None:
            if not forms and not _external(name, env):
                refusal = "runs_code"  # neither builtin, alias nor program: nobody knows
            break
        if name in seen or len(seen) >= _ALIAS_DEPTH:
            return GitExpansion(tuple(forms), "runs_code")
        seen.add(name)
        if value.startswith("!"):  # `sh -c '<script> "$@"'`: its commands, the words after
            script = analyze_shell(value[1:]).commands
            forms.extend(inner.argv for inner in script if inner.argv)
            return GitExpansion(tuple(forms), "runs_code")
        words = tuple(value.split())
        if not words:
            break
        forms.append((argv[0], *argv[1:at], *words, *rest))
        name, rest = words[0], (*words[1:], *rest)
    return GitExpansion(tuple(forms), refusal) if forms or refusal else None


@dataclass(frozen=True, slots=True)
class _Globals:
    chdirs: tuple[str, ...]
    git_dirs: tuple[str, ...]
    settings: tuple[tuple[str, str], ...]


def _globals(argv: tuple[str, ...]) -> tuple[_Globals, int]:
    """git's options before the subcommand that say where its config is."""
    chdir, git_dirs, settings = ".", [], []
    at = 1
    while at < len(argv) and argv[at].startswith("-"):
        word = argv[at]
        following = argv[at + 1] if at + 1 < len(argv) else ""
        if word == "-C":
            chdir, at = posixpath.join(chdir, following), at + 2
        elif word == "-c":
            key, _, value = following.partition("=")
            settings.append((key.lower(), value))
            at += 2
        elif word in ("--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"):
            if word == "--git-dir":
                git_dirs.append(following)
            at += 2
        elif word.startswith("--git-dir="):
            git_dirs.append(word.partition("=")[2])
            at += 1
        elif word == "--":
            at += 1
            break
        else:
            at += 1
    return _Globals((chdir,), tuple(git_dirs), tuple(settings)), at


def _aliases(
    cwds: list[str],
    git_dirs: tuple[str, ...],
    settings: tuple[tuple[str, str], ...],
    env: Mapping[str, str],
    home: str,
) -> _Config:
    """The aliases git would see from any of `cwds` (the union: deny errs toward more)."""
    aliases: dict[str, str] = {}
    unreadable = False
    home = env.get("HOME") or home
    files: list[str] = []
    if not env.get("GIT_CONFIG_NOSYSTEM"):
        files.append(env.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig")
    if env.get("GIT_CONFIG_GLOBAL"):
        files.append(env["GIT_CONFIG_GLOBAL"])
    else:
        xdg = env.get("XDG_CONFIG_HOME") or posixpath.join(home, ".config")
        files += [posixpath.join(xdg, "git", "config"), posixpath.join(home, ".gitconfig")]
    dirs = [*git_dirs, *([env["GIT_DIR"]] if env.get("GIT_DIR") else [])]
    for cwd in cwds:  # with --git-dir git does not look; the union errs toward more aliases
        dirs.extend(_git_dirs(cwd))
    for git_dir in dict.fromkeys(dirs):
        base = git_dir if posixpath.isabs(git_dir) else posixpath.join(cwds[0], git_dir)
        files += [posixpath.join(base, "config"), posixpath.join(base, "config.worktree")]
        common = _read(posixpath.join(base, "commondir"))
        if common:
            files.append(posixpath.join(base, common.strip(), "config"))
    entries: list[tuple[str, str]] = []
    for path in files:
        unreadable |= _entries(path, home, entries, 0)
    extra = env_entries(env)
    unreadable |= extra is None
    for key, value in [*entries, *(extra or ()), *settings]:
        if key.startswith("alias."):
            aliases[key[6:].lower()] = value
        elif key.startswith("includeif.") or key == "include.path":
            unreadable = True  # a condition, or an include given by -c or the environment
    return _Config(aliases, unreadable)


def _entries(path: str, home: str, out: list[tuple[str, str]], depth: int) -> bool:
    """Appends the file's entries, following `include.path`; True when it cannot be read
    whole (a file that exists but does not parse, includes too deep)."""
    text = _read(path)
    if text is None:
        return False
    try:
        entries = parse_config(text)
    except ValueError:
        return True
    unreadable = False
    for key, value in entries:
        if key == "include.path":
            if depth >= _INCLUDE_DEPTH:
                return True
            target = home + value[1:] if value.startswith("~/") else value
            target = posixpath.join(posixpath.dirname(path), target)
            unreadable |= _entries(target, home, out, depth + 1)
        else:
            out.append((key, value))
    return unreadable


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(1 << 20)
    except OSError:
        return None


def _git_dirs(cwd: str) -> list[str]:
    """The repository git finds from `cwd`: the nearest `.git` (a directory, or a file saying
    `gitdir: …`), or `cwd` itself when it is a bare repository."""
    here = posixpath.normpath(cwd)
    while True:
        dot = posixpath.join(here, ".git")
        if os.path.isdir(dot):
            return [dot]
        if os.path.isfile(dot):
            text = _read(dot) or ""
            target = text.partition("gitdir:")[2].strip()
            return [posixpath.join(here, target)] if target else []
        if os.path.isfile(posixpath.join(here, "HEAD")) and os.path.isdir(
            posixpath.join(here, "objects")
        ):
            return [here]
        parent = posixpath.dirname(here)
        if parent == here:
            return []
        here = parent


def _external(name: str, env: Mapping[str, str]) -> bool:
    """A `git-<name>` program git would run (its exec path, then PATH)."""
    path = os.pathsep.join([env.get("GIT_EXEC_PATH") or EXEC_PATH, env.get("PATH", "")])
    return "/" not in name and shutil.which(f"git-{name}", path=path) is not None


def _assigned(words: tuple[str, ...]) -> list[tuple[str, str]]:
    """`NAME=value` words (assignments, `env NAME=value`, `export NAME=value`)."""
    found = []
    for word in words:
        name, equals, value = word.partition("=")
        if equals and name.replace("_", "a").isalnum() and not name[0].isdigit():
            found.append((name, value))
    return found


def _line_assignments(analysis: ShellAnalysis) -> dict[str, str]:
    """Every variable the line sets for later commands (order is not followed: all count)."""
    found: dict[str, str] = {}
    for command in analysis.commands:
        if command.assignments and not command.argv:
            found.update(_assigned(command.words))
        elif command.argv and command.argv[0] in ("export", "declare", "typeset", "local"):
            found.update(_assigned(command.argv[1:]))
    return found


def _directories(analysis: ShellAnalysis, workspace: str, home: str) -> list[str]:
    cwds = [workspace]
    for command in analysis.commands:
        target = directory_change(command.argv)
        if target:
            target = home + target[1:] if target == "~" or target.startswith("~/") else target
            cwds.append(posixpath.join(workspace, target))
    return cwds
