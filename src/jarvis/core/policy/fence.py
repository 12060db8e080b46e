"""The boundary at the gate: what one tool call touches, judged by `Boundary` (this module does
the file system reads: `realpath` of path arguments and of path-like shell words).

API:
- `Fence(verdict, warning, path)`: `forbidden` (a secret location; `Sandbox.decide` blocks with
  reason `secret_path`), `ask` (a human must answer even if the role policy would not ask:
  a read or write outside the workspace, a bash line naming a secret, web_fetch per host), or
  `free`. `warning` is `"outside_workspace"` / `"secret_path"` / `""`.
- `fence_call(tool, args, boundary, *, web_asks, targets=None) -> Fence`.
- `call_targets(tool, args, workspace) -> tuple[Target, ...]`: the paths a file tool touches.
- `shell_secret_word(command, boundary) -> str | None`: the first word of a bash line that
  names a secret location or a directory holding one (`~`, `/etc`); bash is not fenced by the
  file system, so an allow rule must never auto-approve such a line.
"""

from __future__ import annotations

import functools
import posixpath
from dataclasses import dataclass
from typing import Any, Literal

from jarvis.core.policy.boundary import Boundary, shell_path_candidates
from jarvis.core.policy.paths import Target, locate, real_path
from jarvis.core.policy.rules import HOST_TOOLS, PATH_TOOLS, READ_TOOLS, SHELL_TOOLS
from jarvis.core.policy.shell import analyze_shell

FILE_TOOLS = READ_TOOLS | PATH_TOOLS
_DIRECTORY_CHANGES = frozenset({"cd", "pushd"})


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
            if verdict.verdict == "ask":
                worst = Fence("ask", "outside_workspace", verdict.path)
        return worst
    if tool in SHELL_TOOLS:
        command = args.get("command")
        if not isinstance(command, str):
            return FREE
        word = shell_secret_word(command, boundary)
        return FREE if word is None else Fence("ask", "secret_path", word)
    if tool in HOST_TOOLS and web_asks:
        return Fence("ask")
    return FREE


def shell_secret_word(command: str, boundary: Boundary) -> str | None:
    named, to_resolve = _shell_plan(boundary, command)
    if named is not None:
        return named
    for word, path in to_resolve:
        if boundary.secret(real_path(path, boundary.workspace)) is not None:
            return word
    return None


@functools.lru_cache(maxsize=2048)
def _shell_plan(boundary: Boundary, command: str) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """The pure part, cached per line: a word naming a secret by its text, else the (word,
    path) pairs whose real path must be looked at (arguments only: not the command name, not
    options, which name no file the command reads)."""
    analysis = analyze_shell(command)
    bases = [boundary.workspace]
    for simple in analysis.commands:
        argv = simple.argv
        if argv and argv[0] in _DIRECTORY_CHANGES:
            bases.extend(
                posixpath.join(boundary.workspace, candidate)
                for word in argv[1:]
                if not word.startswith("-")
                for candidate in shell_path_candidates([word], boundary.home)
            )
    to_resolve: dict[tuple[str, str], None] = {}
    for simple in analysis.commands:
        for position, word in enumerate(simple.words):
            # The command name runs, an option is no file: their text is judged, not their links.
            judged_only = position == simple.assignments or word.startswith("-")
            for candidate in shell_path_candidates([word], boundary.home):
                for base in bases if not candidate.startswith("/") else bases[:1]:
                    path = posixpath.join(base, candidate)
                    lexical = "/" + posixpath.normpath(path).lstrip("/")
                    if boundary.secret(lexical) is not None or boundary.holds_secret(lexical):
                        return candidate, ()
                    if not judged_only:
                        to_resolve[(candidate, path)] = None
    return None, tuple(to_resolve)
