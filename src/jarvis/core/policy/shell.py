"""Shell lines parsed with tree-sitter-bash, so rules judge commands, never raw strings.

API:
- `analyze_shell(command) -> ShellAnalysis` (cached): every simple command anywhere in the line,
  in source order, including those inside `$(..)`, backticks, `<(..)`, heredocs and compound
  statements (so deny rules see them), plus `unsafe` reasons why allow rules may never
  auto-approve the line.
- `SimpleCommand.words` is the argv with quotes removed (`'a b'` -> `a b`, `st"atus"` -> `status`);
  leading `VAR=value` words are kept (`assignments` counts them) so they never match a plain rule.
  The command name is kept exactly as written: no tilde expansion, no path normalising.
  Expansions (`$HOME`, `$(..)`) stay as written. `argv` drops the assignments; `text()` re-quotes
  the words with `shlex.join`. The other fields say how bash wires the command (its input, the
  files its redirections write, pipes, `&`, the function and the command that hold it); only the
  dangerous-command judgement reads them.
- `WRAPPER_COMMANDS`, `INLINE_CODE_COMMANDS`, `DYNAMIC_EVAL_COMMANDS` (from `programs`).

Unsafe reasons (fail closed, like Codex): `parse_error` (ERROR/MISSING nodes or any construct not
understood here), `command_substitution`, `process_substitution`, `write_redirection` (a write to
anything but `/dev/null`; fd duplication and input redirection are fine), `network_redirection`
(a redirection from or to `/dev/tcp/..` or `/dev/udp/..`: bash opens a socket), `expansion` (`$VAR`,
`${..}`, `$((..))`, `$'..'`, brace expansion), `dynamic_eval` (`eval`, `source`, `.`, `exec`),
`compound` (if/for/while/case/functions/tests), `assignment` (a `VAR=value` prefix or a bare
assignment), `empty`, and three where tree-sitter and bash are known to read a line differently
(see `parse_guard`): `heredoc_delimiter`, `control_character`, `too_deep` (nesting deeper than
the walker follows); and `too_complex` (more than `MAX_NODES` syntax nodes in a line that is not
plain: not walked at all). The dangerous-command judgement blocks the last two. A NUL byte,
or a backslash-newline inside a word (bash joins `r\\<newline>m` into `rm`, tree-sitter does
not), is a `parse_error` too. The walk itself is in `shell_walk`;
lines of plain words and `&& || | ; &` only skip tree-sitter (`shell_plain`).
"""

from __future__ import annotations

import functools
import threading

import tree_sitter_bash
from tree_sitter import Language, Parser

from jarvis.core.policy import parse_guard
from jarvis.core.policy.programs import (
    DYNAMIC_EVAL_COMMANDS,
    INLINE_CODE_COMMANDS,
    WRAPPER_COMMANDS,
)
from jarvis.core.policy.shell_plain import plain_analysis
from jarvis.core.policy.shell_types import ShellAnalysis, SimpleCommand, StdinSource, UnsafeReason
from jarvis.core.policy.shell_walk import walk

__all__ = [
    "DYNAMIC_EVAL_COMMANDS",
    "INLINE_CODE_COMMANDS",
    "WRAPPER_COMMANDS",
    "ShellAnalysis",
    "SimpleCommand",
    "StdinSource",
    "UnsafeReason",
    "analyze_shell",
]

# Lines that are not plain (see `shell_plain`) and parse to more syntax nodes than this are not
# walked (a node costs a few microseconds in Python): they are `too_complex` and blocked, so a
# 100 KB line is decided in tens of milliseconds whatever its shape. Real commands use hundreds.
MAX_NODES = 8000
# Lines up to this size share a large cache; longer ones (rare, up to 128 KiB) a small one.
_SMALL_LINE = 8192

_PARSER = Parser(Language(tree_sitter_bash.language()))
_PARSER_LOCK = threading.Lock()  # a tree-sitter Parser is not safe to share across threads


def analyze_shell(command: str) -> ShellAnalysis:
    """Parse one shell line (may hold many commands); pure and cached."""
    return _analyze_small(command) if len(command) <= _SMALL_LINE else _analyze_large(command)


@functools.lru_cache(maxsize=4096)
def _analyze_small(command: str) -> ShellAnalysis:
    return _analyze(command)


@functools.lru_cache(maxsize=8)
def _analyze_large(command: str) -> ShellAnalysis:
    return _analyze(command)


def _analyze(command: str, depth: int = 0) -> ShellAnalysis:
    try:
        source = command.encode("utf-8")
    except UnicodeEncodeError:
        return ShellAnalysis((), ("parse_error",))
    if b"\0" in source:
        return ShellAnalysis((), ("parse_error",))  # tree-sitter stops reading at NUL
    plain = plain_analysis(command)
    return plain if plain is not None else _tree_analysis(command, source, depth)


def _tree_analysis(command: str, source: bytes, depth: int = 0) -> ShellAnalysis:
    with _PARSER_LOCK:
        root = _PARSER.parse(source).root_node
    if root.descendant_count > MAX_NODES:
        return ShellAnalysis((), ("too_complex",))  # blocked: walking it would stall the loop
    early: list[UnsafeReason] = []
    if root.has_error or parse_guard.joins_words(command):
        early.append("parse_error")
    if parse_guard.has_control_character(command):
        early.append("control_character")
    return walk(root, source, tuple(early), reparse=_analyze, depth=depth)
