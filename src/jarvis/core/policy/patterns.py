"""The narrow pattern ALWAYS would save, shown to the human before it is pressed (seed 000).

API: `suggest_pattern(tool, args, workspace) -> str | None`; None means no ALWAYS is offered.

- bash: the first two words as a token prefix (`git status --short` -> `git status`, `pwd` ->
  `pwd`), quoted with `shlex.join` so it round-trips through the rule parser. Only for a line
  that is exactly one safe simple command; never for a `VAR=value` prefix, `eval`/`source`/
  `exec`, a wrapper that runs another command (`env`, `xargs`, `timeout`, `sudo` ...), or a
  shell/interpreter given a flag (`sh -c`, `python -c`, `node -e`): their two-word prefix would
  approve arbitrary code.
- write_file/edit_file: the directory glob of the normalised path (`src/app/main.py` ->
  `src/app/*`; outside the workspace the absolute directory, `/etc/hosts` -> `/etc/*`). A file
  directly in the workspace root or in `/` gets its exact path instead: `*` there would also
  cover `Makefile`, `.envrc`, `pyproject.toml` and other files that make later commands run
  code. Paths containing glob characters (`*`, `?`) get no suggestion.
- read_file: like write_file, the file's directory (`/etc/hosts` -> `/etc/*`); glob, grep and
  list_dir: the directory's subtree (`~/notes` -> `/home/u/notes/**`, which covers the directory
  itself). Never for `/` itself. Reads inside the workspace never ask, so these are in practice
  absolute.
- web_fetch: the URL's host (`https://docs.python.org/3/` -> `docs.python.org`); None when the
  URL has no host.
- Other tools: `*`.
"""

from __future__ import annotations

import posixpath
import shlex
from pathlib import Path
from typing import Any

from jarvis.core.policy.network import url_host
from jarvis.core.policy.rules import (
    ANY_PATTERN,
    HOST_TOOLS,
    PATH_TOOLS,
    READ_TOOLS,
    SHELL_TOOLS,
    normalise_path,
)
from jarvis.core.policy.shell import (
    DYNAMIC_EVAL_COMMANDS,
    INLINE_CODE_COMMANDS,
    WRAPPER_COMMANDS,
    analyze_shell,
)

_PREFIX_WORDS = 2


def suggest_pattern(tool: str, args: dict[str, Any], workspace: Path) -> str | None:
    if tool in READ_TOOLS:
        return _read_pattern(tool, args, workspace)
    if tool in HOST_TOOLS:
        url = args.get("url")
        return url_host(url) if isinstance(url, str) else None
    if tool in SHELL_TOOLS:
        command = args.get("command")
        return _shell_pattern(command) if isinstance(command, str) else None
    if tool in PATH_TOOLS:
        path = args.get("path")
        return _path_pattern(path, workspace) if isinstance(path, str) and path else None
    return ANY_PATTERN


def _shell_pattern(command: str) -> str | None:
    analysis = analyze_shell(command)
    if analysis.unsafe or len(analysis.commands) != 1:
        return None
    simple = analysis.commands[0]
    words = simple.words[:_PREFIX_WORDS]
    if simple.assignments or not _may_prefix(words):
        return None
    return shlex.join(words)


def _may_prefix(words: tuple[str, ...]) -> bool:
    name = words[0].rpartition("/")[2]
    if words[0] in DYNAMIC_EVAL_COMMANDS or name in WRAPPER_COMMANDS:
        return False
    takes_inline_code = len(words) > 1 and words[1].startswith("-")
    return not (name in INLINE_CODE_COMMANDS and takes_inline_code)


def _path_pattern(raw: str, workspace: Path) -> str | None:
    path = normalise_path(raw, workspace)
    if path == "." or "*" in path or "?" in path:
        return None
    directory = posixpath.dirname(path)
    if directory in ("", "/"):
        return path  # the root itself is too wide to glob
    return f"{directory}/*"


def _read_pattern(tool: str, args: dict[str, Any], workspace: Path) -> str | None:
    raw = args.get("path", None if tool == "read_file" else ".")
    if not isinstance(raw, str) or not raw:
        return None
    if tool == "read_file":
        return _path_pattern(raw, workspace)
    path = normalise_path(raw, workspace)
    if path == "/" or "*" in path or "?" in path:
        return None
    return "**" if path == "." else f"{path}/**"
