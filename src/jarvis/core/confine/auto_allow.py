"""Fewer prompts where the sandbox makes them safe (opt-in: `security.sandbox_auto_allow`).

A bash line the sandbox confines runs without asking: it needs no network (the sandbox gives
it none), writes only in the workspace or the private /tmp, names no secret location, is not
destructive, does not try to act outside the sandbox (`sudo`, `docker`, …), parses cleanly and
carries no control characters. Anything else still asks. The gate's dangerous-command
judgement, deny rules and secret checks run before this and are unchanged. Pure.

API: `confined_line(command, boundary) -> bool`; `confined_call(tool, args, boundary) -> bool`
(a `bash` call whose line is confined); `sandboxed_allow(security, jarvis_home)` — that hook
for the gate when the setting is on and the sandbox works, else None.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jarvis.core.config import SecuritySettings
from jarvis.core.confine.confiner import Confiner
from jarvis.core.confine.judge import argv_needs_network, leaves_sandbox
from jarvis.core.policy import parse_guard
from jarvis.core.policy.boundary import Boundary
from jarvis.core.policy.fence import shell_secret_word
from jarvis.core.policy.programs import program_name
from jarvis.core.policy.request_warnings import is_destructive
from jarvis.core.policy.shell import ShellAnalysis, analyze_shell
from jarvis.core.policy.unwrap import command_starts

# Programs whose path arguments are written (or moved to).
_WRITERS = frozenset(
    {"cp", "mv", "ln", "install", "tee", "touch", "mkdir", "rsync", "dd", "tar", "unzip",
     "patch", "chmod", "chown", "truncate", "git"}
)  # fmt: skip
_DIRECTORY_CHANGES = frozenset({"cd", "pushd"})
_HARMLESS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})


def sandboxed_allow(
    security: SecuritySettings, jarvis_home: Path
) -> Callable[[str, dict[str, Any], Boundary], bool] | None:
    """The gate's hook when the setting is on and the OS sandbox works here, else None."""
    if not security.sandbox_auto_allow:
        return None
    confiner = Confiner.from_settings(security, Path.home(), jarvis_home)
    return confined_call if confiner.active else None


def confined_call(tool: str, args: dict[str, Any], boundary: Boundary) -> bool:
    command = args.get("command")
    return tool == "bash" and isinstance(command, str) and confined_line(command, boundary)


def confined_line(command: str, boundary: Boundary) -> bool:
    if parse_guard.has_control_character(command) or parse_guard.has_invisible_formatting(command):
        return False
    analysis = analyze_shell(command)
    # Redirections are judged below (they must stay in the workspace or /tmp).
    if set(analysis.unsafe) - {"write_redirection"} or not analysis.commands:
        return False
    if (
        _network(command, analysis)
        or leaves_sandbox(command)
        or is_destructive(_past_tmp(analysis))
    ):
        return False
    if shell_secret_word(command, boundary) is not None:
        return False
    for simple in analysis.commands:
        if not all(_stays(target, boundary) for target in simple.writes):
            return False
        argv = simple.argv
        for start in command_starts(argv):
            name = program_name(argv[start])
            if name in _DIRECTORY_CHANGES and not all(
                _stays(word, boundary) for word in argv[start + 1 :] if not word.startswith("-")
            ):
                return False
            if name in _WRITERS and not all(
                _stays(word, boundary)
                for word in argv[start + 1 :]
                if _pathlike(word) and not word.startswith("-")
            ):
                return False
    return True


def _network(command: str, analysis: ShellAnalysis) -> bool:
    if "/dev/tcp/" in command or "/dev/udp/" in command:
        return True
    return any(argv_needs_network(c.argv) for c in analysis.commands)


def _past_tmp(analysis: ShellAnalysis) -> ShellAnalysis:
    """Without redirections into the private /tmp: the sandbox throws those away."""
    kept = tuple(
        dataclasses.replace(c, writes=tuple(w for w in c.writes if not _in_tmp(w)))
        for c in analysis.commands
    )
    return dataclasses.replace(analysis, commands=kept)


def _in_tmp(path: str) -> bool:
    return posixpath.normpath(path).startswith("/tmp/")


def _pathlike(word: str) -> bool:
    return word.startswith(("/", "~", "..")) or "/.." in word


def _stays(path: str, boundary: Boundary) -> bool:
    """Inside the workspace or the sandbox's own /tmp, judged lexically (a symlink out of the
    workspace leads to the read-only system: the write fails there)."""
    if path in _HARMLESS:
        return True
    if path == "~" or path.startswith("~/"):
        path = boundary.home + path[1:]
    full = posixpath.normpath(posixpath.join(boundary.workspace, path))
    return boundary.inside(full) or full == "/tmp" or full.startswith("/tmp/")
