"""The narrow pattern ALWAYS would save, shown to the human before it is pressed (seed 000).

API:
- `explain_pattern(tool, args, workspace) -> (pattern, reason)`: the pattern, or None with a
  code saying why no ALWAYS is offered (the UI explains the code; see `NO_ALWAYS_REASONS`).
- `suggest_pattern(tool, args, workspace) -> str | None`: the pattern alone.

- bash: the first two words as a token prefix (`git status --short` -> `git status`, `pwd` ->
  `pwd`), of the canonical command when global options stand first (`git -P status` -> `git
  status`, `python -m pytest tests` -> `pytest tests`; see `canonical`; none when a global
  option is refused: `git -C /etc status` gets no `git -C`), quoted with `shlex.join` so it
  round-trips through the rule parser. Only for a line that is exactly one safe simple
  command: `compound` for several, `unsafe` for any construct
  in `shell.UnsafeReason` or bidi/zero-width characters. Never for a wrapper that runs another
  command (`wrapper`: `env`, `xargs`, `timeout`, `sudo`, `find` ...), for `eval`/`source`/
  `exec` or a shell/interpreter given a flag (`inline_code`: `sh -c`, `python -c`), for
  arguments the program's argument policy refuses (`runs_code`, `writes_file`,
  `outside_workspace`: see `argv_policy`), or for a prefix holding a secret-looking word
  (`secret`: `mysql -pHunter2`). Every suggestion is a valid `Rule` covering its own call.
- write_file/edit_file: the directory glob of the normalised path (`src/app/main.py` ->
  `src/app/*`; outside the workspace the absolute directory, `/etc/hosts` -> `/etc/*`). A file
  directly in the workspace root or in `/` gets its exact path instead: `*` there would also
  cover `Makefile`, `.envrc`, `pyproject.toml` and other files that make later commands run
  code. The workspace itself gets none (`root`), nor do paths with glob characters
  (`glob_chars`: `*`, `?`).
- read_file: like write_file, the file's directory (`/etc/hosts` -> `/etc/*`); glob, grep and
  list_dir: the directory's subtree (`~/notes` -> `/home/u/notes/**`, which covers the directory
  itself). Never for `/` itself. Reads inside the workspace never ask, so these are in practice
  absolute.
- web_fetch: the URL's host (`https://docs.python.org/3/` -> `docs.python.org`); None when the
  URL has no host (`invalid_args`).
- Other tools: `*`.
- Missing or mistyped arguments: `invalid_args`.
"""

from __future__ import annotations

import posixpath
import shlex
from pathlib import Path
from typing import Any

from jarvis.core.policy import parse_guard
from jarvis.core.policy.argv_policy import command_refusal, pattern_refusal
from jarvis.core.policy.canonical import canonical_command
from jarvis.core.policy.network import url_host
from jarvis.core.policy.programs import (
    DYNAMIC_EVAL_COMMANDS,
    INLINE_CODE_COMMANDS,
    WRAPPER_COMMANDS,
    program_name,
)
from jarvis.core.policy.rules import (
    ANY_PATTERN,
    HOST_TOOLS,
    PATH_TOOLS,
    READ_TOOLS,
    SHELL_TOOLS,
    normalise_path,
)
from jarvis.core.policy.secrets import secret_in
from jarvis.core.policy.shell import analyze_shell

# Every code `explain_pattern` (and the sandbox, for `no_standing_consent`) may give.
NO_ALWAYS_REASONS = frozenset(
    {
        "compound", "unsafe", "wrapper", "inline_code", "runs_code", "writes_file",
        "outside_workspace", "secret", "no_standing_consent", "glob_chars", "root",
        "invalid_args",
    }
)  # fmt: skip
_PREFIX_WORDS = 2

Explained = tuple[str | None, str | None]


def suggest_pattern(tool: str, args: dict[str, Any], workspace: Path) -> str | None:
    return explain_pattern(tool, args, workspace)[0]


def explain_pattern(tool: str, args: dict[str, Any], workspace: Path) -> Explained:
    if tool in READ_TOOLS:
        return _read_pattern(tool, args, workspace)
    if tool in HOST_TOOLS:
        url = args.get("url")
        host = url_host(url) if isinstance(url, str) else None
        return (host, None) if host else (None, "invalid_args")
    if tool in SHELL_TOOLS:
        command = args.get("command")
        return _shell_pattern(command) if isinstance(command, str) else (None, "invalid_args")
    if tool in PATH_TOOLS:
        path = args.get("path")
        if not isinstance(path, str) or not path:
            return None, "invalid_args"
        return _path_pattern(path, workspace)
    return ANY_PATTERN, None


def _shell_pattern(command: str) -> Explained:
    analysis = analyze_shell(command)
    if len(analysis.commands) > 1 or "compound" in analysis.unsafe:
        return None, "compound"
    if analysis.unsafe or parse_guard.has_invisible_formatting(command):
        return None, "unsafe"  # a pattern a human cannot read as it matches is no consent
    simple = analysis.commands[0]
    canon = None if simple.assignments else canonical_command(simple.words)
    if canon is not None and canon.exact and canon.refusal is not None:
        return None, canon.refusal.reason  # `git -C` would cover every place and subcommand
    canonical = None if canon is None else _canonical_words(simple.words)
    if canonical is not None:
        refusal = command_refusal(simple, len(canonical), canonical=True)
        return (None, refusal.reason) if refusal else (shlex.join(canonical), None)
    words = simple.words[:_PREFIX_WORDS]
    name = program_name(words[0])
    if words[0] in DYNAMIC_EVAL_COMMANDS:
        return None, "inline_code"
    if name in WRAPPER_COMMANDS:
        return None, "wrapper"
    if name in INLINE_CODE_COMMANDS and len(words) > 1 and words[1].startswith("-"):
        return None, "inline_code"
    refusal = command_refusal(simple, consented=len(words))
    if refusal is not None:
        return None, refusal.reason
    if secret_in(words) is not None:
        return None, "secret"
    if pattern_refusal(words) is not None:
        return None, "runs_code"
    return shlex.join(words), None


def _canonical_words(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The rule prefix of the canonical command (`git -P status` -> `git status`), when the
    global options are all known and none is refused: a rule that still covers this call."""
    canon = canonical_command(words)
    if canon is None or not canon.exact or canon.argv == words:
        return None
    if canon.argv[0] != words[0] and "/" in words[0]:
        return None
    prefix = canon.argv[:_PREFIX_WORDS]
    if secret_in(prefix) is not None or pattern_refusal(prefix) is not None:
        return None
    return prefix


def _path_pattern(raw: str, workspace: Path) -> Explained:
    path = normalise_path(raw, workspace)
    if path == ".":
        return None, "root"
    if "*" in path or "?" in path:
        return None, "glob_chars"
    directory = posixpath.dirname(path)
    if directory in ("", "/"):
        return path, None  # the root itself is too wide to glob
    return f"{directory}/*", None


def _read_pattern(tool: str, args: dict[str, Any], workspace: Path) -> Explained:
    raw = args.get("path", None if tool == "read_file" else ".")
    if not isinstance(raw, str) or not raw:
        return None, "invalid_args"
    if tool == "read_file":
        return _path_pattern(raw, workspace)
    path = normalise_path(raw, workspace)
    if path == "/":
        return None, "root"
    if "*" in path or "?" in path:
        return None, "glob_chars"
    return ("**" if path == "." else f"{path}/**"), None
