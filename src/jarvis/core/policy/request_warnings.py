"""What makes a human look twice at a bash approval request: the `warnings` it carries.

API (pure):
- `shell_warnings(command, analysis) -> list[str]`, in this order when present:
  `compound` (more than one simple command, or any construct in `analysis.unsafe`),
  `destructive` (a command that deletes, overwrites or rewrites: see `is_destructive`),
  `control_chars` (control characters, or bidi/zero-width formatting that makes what is shown
  differ from what runs).
- `is_destructive(analysis) -> bool`: judged on argv, looking through wrappers: `rm`, `rmdir`,
  `unlink`, `shred`, `truncate`, `dd`, `mv` (unless `-n`), recursive `chmod`/`chown`,
  `find -delete`/`-exec`, in-place `sed -i`/`perl -i`, `tee` to a file, a redirection that
  writes a file, `git push --force`/`--delete`/`+ref`, `git reset --hard`, `git clean`,
  `git checkout -- path`/`-f`, `git restore`, `git branch -D`, `git stash drop|clear`, `git rm`
  and other history rewrites, `docker rm|rmi|prune`, `kubectl delete`.
"""

from __future__ import annotations

from jarvis.core.policy import parse_guard
from jarvis.core.policy.programs import program_name
from jarvis.core.policy.shell import ShellAnalysis
from jarvis.core.policy.unwrap import command_starts

WARNING_CODES = ("compound", "destructive", "control_chars")
_ALWAYS = frozenset({"rm", "rmdir", "unlink", "shred", "truncate", "dd", "wipefs", "rimraf"})
_RECURSIVE_OWNERS = frozenset({"chmod", "chown", "chgrp"})
_IN_PLACE = frozenset({"sed", "gsed", "perl"})
_HARMLESS_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})
# git subcommands that always discard or rewrite, and those that do with one of these words.
_GIT_ALWAYS = frozenset({"clean", "rm", "filter-branch", "filter-repo", "restore"})
_ONLY_STAGED = frozenset({"--staged", "-S"})
_GIT_WITH = {
    "push": ("-f", "--force", "--force-with-lease", "--force-if-includes", "--delete", "-d",
             "--mirror", "--prune"),
    "reset": ("--hard", "--merge", "--keep"),
    "checkout": ("-f", "--force", "--", ".", "-B"),
    "switch": ("-f", "--force", "--discard-changes", "-C"),
    "branch": ("-D", "-d", "--delete", "-f", "--force", "-M", "-C"),
    "tag": ("-d", "--delete", "-f", "--force"),
    "stash": ("drop", "clear"),
    "reflog": ("expire", "delete"),
    "gc": ("--prune=now", "--prune=all"),
    "update-ref": ("-d",),
    "worktree": ("remove", "prune"),
}  # fmt: skip
_OTHER_WITH = {
    "docker": ("rm", "rmi", "prune", "kill"),
    "podman": ("rm", "rmi", "prune", "kill"),
    "kubectl": ("delete", "drain", "replace"),
}


def shell_warnings(command: str, analysis: ShellAnalysis) -> list[str]:
    warnings: list[str] = []
    if len(analysis.commands) > 1 or analysis.unsafe:
        warnings.append("compound")
    if is_destructive(analysis):
        warnings.append("destructive")
    if parse_guard.has_control_character(command) or parse_guard.has_invisible_formatting(command):
        warnings.append("control_chars")
    return warnings


def is_destructive(analysis: ShellAnalysis) -> bool:
    for command in analysis.commands:
        if any(target not in _HARMLESS_TARGETS for target in command.writes):
            return True
        argv = command.argv
        if any(_destroys(argv[start:]) for start in command_starts(argv)):
            return True
    return False


def _destroys(argv: tuple[str, ...]) -> bool:
    name, args = program_name(argv[0]), argv[1:]
    if name in _ALWAYS:
        return True
    if name == "mv":
        return not any(word in ("-n", "--no-clobber") for word in args)
    if name in _RECURSIVE_OWNERS:
        return any(word in ("-R", "--recursive") for word in args)
    if name == "find":
        return any(word in ("-delete", "-exec", "-execdir", "-ok", "-okdir") for word in args)
    if name in _IN_PLACE:
        return any(word.startswith(("-i", "--in-place")) for word in args)
    if name == "tee":
        return any(not word.startswith("-") for word in args) and "-a" not in args
    if name == "git":
        return _git_destroys(args)
    words = _OTHER_WITH.get(name)
    return words is not None and any(word in words for word in args)


def _git_destroys(args: tuple[str, ...]) -> bool:
    positional = [word for word in args if not word.startswith("-")]
    if not positional:
        return False
    subcommand = positional[0]
    if subcommand == "clean":
        return not any(word in ("-n", "--dry-run") for word in args)
    if subcommand == "restore":  # `--staged` alone only unstages
        staged = any(word in _ONLY_STAGED for word in args)
        return not staged or any(word in ("--worktree", "-W") for word in args)
    if subcommand in _GIT_ALWAYS:
        return True
    if subcommand == "push" and any(word.startswith(("+", ":")) for word in positional[1:]):
        return True  # `git push origin +main` forces, `:branch` deletes
    words = _GIT_WITH.get(subcommand)
    if words is None:
        return False
    return any(word in words or word.startswith("--force-with-lease") for word in args)
