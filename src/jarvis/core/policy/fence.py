"""The boundary at the gate: what one tool call touches, judged by `Boundary` (this module does
the file system reads: `realpath` of path arguments and of path-like shell words).

API:
- `Fence(verdict, warning, path)`: `forbidden` (a secret location; `Sandbox.decide` blocks with
  reason `secret_path`), `ask` (a human must answer even if the role policy would not ask:
  a read or write outside the workspace, a bash line naming a secret, web_fetch per host), or
  `free`. `warning` is `"outside_workspace"` / `"secret_path"` / `""`.
- `fence_call(tool, args, boundary, *, web_asks, targets=None) -> Fence`.
- `call_targets(tool, args, workspace) -> tuple[Target, ...]`: the paths a file tool touches.
- `shell_fence_word(command, boundary) -> (code, word) | None`: the first word of a bash line
  that names a secret location or a directory holding one (`~`, `/etc`) by its text, through a
  symlink (plain arguments), or through the glob bash would expand (`~/.ss*/id_rsa`), also
  after a `cd` (a bare `cd` goes home) — `secret_path`; a file the line writes outside the
  workspace (`shell_writes`: `cp x ../y`, `tee ~/f`) — `outside_workspace`; a `cd` it cannot
  follow — `unresolvable_path`. bash is not fenced by the file system, so an allow rule (`*`
  too) must never auto-approve such a line. `shell_secret_word`: its word alone.
"""

from __future__ import annotations

import functools
import glob
import posixpath
from dataclasses import dataclass
from typing import Any, Literal

from jarvis.core.policy.boundary import Boundary, shell_path_candidates
from jarvis.core.policy.paths import Target, locate, real_path
from jarvis.core.policy.rules import HOST_TOOLS, PATH_TOOLS, READ_TOOLS, SHELL_TOOLS
from jarvis.core.policy.shell import analyze_shell
from jarvis.core.policy.shell_writes import directory_change, written_words

FILE_TOOLS = READ_TOOLS | PATH_TOOLS
_GLOB_CHARS = frozenset("*?[")
_GLOB_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class Fence:
    verdict: Literal["free", "ask", "forbidden"]
    warning: str = ""
    path: str = ""


FREE = Fence("free")


def call_targets(tool: str, args: dict[str, Any], workspace: str) -> tuple[Target, ...]:
    raw = args.get("path")
    if raw is None and tool in READ_TOOLS and tool != "read_file":
        raw = "."  # glob, grep and list_dir default to the workspace
    if not isinstance(raw, str) or not raw:
        return ()
    return (locate(raw, workspace),)


def fence_call(
    tool: str,
    args: dict[str, Any],
    boundary: Boundary,
    *,
    web_asks: bool,
    targets: tuple[Target, ...] | None = None,
) -> Fence:
    """`targets`: the file tool's `call_targets`, when the caller already has them."""
    if tool in FILE_TOOLS:
        worst = FREE
        if targets is None:
            targets = call_targets(tool, args, boundary.workspace)
        for target in targets:
            verdict = boundary.judge(target.lexical, target.real)
            if verdict.verdict == "forbidden":
                return Fence("forbidden", "secret_path", verdict.path)
            if not target.resolved:  # a loop, a parent it may not search, …: ask
                worst = Fence("ask", "unresolvable_path", target.lexical)
            elif verdict.verdict == "ask":
                worst = Fence("ask", "outside_workspace", verdict.path)
        return worst
    if tool in SHELL_TOOLS:
        command = args.get("command")
        if not isinstance(command, str):
            return FREE
        found = shell_fence_word(command, boundary)
        return FREE if found is None else Fence("ask", found[0], found[1])
    if tool in HOST_TOOLS and web_asks:
        return Fence("ask")
    return FREE


# Distinct path words a rule-approved line may name before it is asked about instead (bounds
# the decision time of a hostile 100 KB line; real lines name a handful).
_MAX_PATHS = 256
_MAX_WORDS = 4096


def shell_secret_word(command: str, boundary: Boundary) -> str | None:
    """The word of `shell_fence_word`, whatever its code."""
    found = shell_fence_word(command, boundary)
    return None if found is None else found[1]


def shell_fence_word(command: str, boundary: Boundary) -> tuple[str, str] | None:
    """(code, word) for the first word a rule must not approve unseen: `secret_path` (a secret
    location or a directory holding one), `outside_workspace` (a file the line writes, moves or
    deletes outside the workspace: `cp x ../y`, `tee ~/f`, also through a link inside it) or
    `unresolvable_path` (a `cd` whose target the words do not say: `cd -`, `popd`)."""
    code, named, to_resolve, writes = _shell_plan(boundary, command)
    if named is not None:
        return code, named
    if len(to_resolve) + len(writes) > _MAX_PATHS:  # each costs a lookup on disk
        return "secret_path", (to_resolve or writes)[0][0]
    for word, path in to_resolve:
        if _leads_to_secret(path, boundary):
            return "secret_path", word
    for word, path in writes:
        if not boundary.inside(real_path(path, boundary.workspace)):
            return "outside_workspace", word
    return None


def _leads_to_secret(path: str, boundary: Boundary) -> bool:
    if "*" not in path and "?" not in path and "[" not in path:  # no glob (`_GLOB_CHARS`)
        return boundary.secret(real_path(path, boundary.workspace)) is not None
    # bash expands `~/.ss*/id_rsa` when it runs: look at what it would expand to (like bash,
    # Python's glob leaves dot files to patterns that start with a dot).
    for count, found in enumerate(glob.iglob(path)):
        if count >= _GLOB_LIMIT:
            return True  # too many to look at: a human decides
        lexical = posixpath.normpath(found)
        if (
            boundary.secret(lexical) is not None
            or boundary.holds_secret(lexical)
            or boundary.secret(real_path(found, boundary.workspace)) is not None
        ):
            return True
    return False


_Pairs = tuple[tuple[str, str], ...]
_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})


@functools.lru_cache(maxsize=2048)
def _shell_plan(boundary: Boundary, command: str) -> tuple[str, str | None, _Pairs, _Pairs]:
    """The pure part, cached per line: (code, word) judged by its text alone, else the (word,
    path) pairs whose real path must be looked at for secrets (arguments only: not the command
    name, not options, which name no file the command reads) and the written ones whose real
    path must stay in the workspace. Relative words are taken from the workspace and from every
    directory a `cd`/`pushd` in the line goes to (a bare `cd` goes home)."""
    analysis = analyze_shell(command)
    bases = [boundary.workspace]
    for simple in analysis.commands:
        target = directory_change(simple.argv)
        if target == "":
            return "unresolvable_path", simple.text(), (), ()
        if target is not None:
            bases.extend(
                posixpath.join(boundary.workspace, candidate)
                for candidate in shell_path_candidates([target], boundary.home)
            )
    to_resolve: dict[tuple[str, str], None] = {}
    writes: dict[tuple[str, str], None] = {}
    seen: set[tuple[str, bool]] = set()
    for simple in analysis.commands:
        for word in written_words(simple.argv):
            for candidate in shell_path_candidates([word], boundary.home):
                for base in bases if not candidate.startswith("/") else bases[:1]:
                    path = posixpath.join(base, candidate)
                    lexical = "/" + posixpath.normpath(path).lstrip("/")
                    if lexical in _DEVICES or lexical.startswith("/dev/fd/"):
                        continue
                    if not boundary.inside(lexical):
                        return "outside_workspace", candidate, (), ()
                    writes[(candidate, path)] = None
        for position, word in enumerate(simple.words):
            # The command name runs, an option is no file: their text is judged, not their links.
            judged_only = position == simple.assignments or word.startswith("-")
            if (word, judged_only) in seen:
                continue  # a long line repeats its words: judge each once
            seen.add((word, judged_only))
            if len(seen) > _MAX_WORDS:
                return "secret_path", word, (), ()  # too many distinct words: a human decides
            for candidate in shell_path_candidates([word], boundary.home):
                for base in bases if not candidate.startswith("/") else bases[:1]:
                    path = posixpath.join(base, candidate)
                    lexical = "/" + posixpath.normpath(path).lstrip("/")
                    if boundary.secret(lexical) is not None or boundary.holds_secret(lexical):
                        return "secret_path", candidate, (), ()
                    if not judged_only or _GLOB_CHARS & set(candidate):
                        to_resolve[(candidate, path)] = None
    return "", None, tuple(to_resolve), tuple(writes)
