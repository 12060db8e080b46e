"""Looking through wrappers and inline scripts: the commands one simple command may run.

API (pure; linear in the number of words):
- `command_starts(argv) -> list[int]`: where a command starts in `argv`: 0, then every word a
  wrapper (`env`, `sudo`, `timeout`, `xargs`, `find -exec`, `nice` ...) or a runner (`uv run`,
  `npx`, `poetry run`, `bundle exec` ...) may run. Wrapper options are not parsed: the first
  `_CANDIDATES` words after a wrapper that are not options are all taken as possible commands,
  which errs toward seeing too much (`timeout 5 rm` yields `5 rm` and `rm`). At most
  `MAX_VIEWS` (64) starts.
- `inline_script(argv, start=0) -> str | None`: the code of `eval ..` or `sh [opts] -c CODE` at
  `argv[start:]` (looking through `"sh"`, `s''h` and `/bin/sh`, which quote removal and
  `program_name` already undo).
- `views(argv, depth) -> Iterator[tuple[tuple[str, ...], int]]`: `(words, start)` for the argv
  as written, every wrapped command, and the commands of inline scripts parsed again (up to
  `MAX_SCRIPT_DEPTH` levels): what deny rules are matched against. A view is the command at
  `words[start:]`, not a copy, so a chain of 10,000 wrappers stays linear.
"""

from __future__ import annotations

from collections.abc import Iterator

from jarvis.core.policy.programs import SHELLS, WRAPPER_COMMANDS, program_name
from jarvis.core.policy.shell import analyze_shell

MAX_SCRIPT_DEPTH = 3
MAX_VIEWS = 64
_CANDIDATES = 8  # words after a wrapper taken as its possible command
_RUNNERS = frozenset({"npx", "bunx", "uvx", "pnpx"})
_TWO_WORD_RUNNERS = frozenset(
    {
        ("uv", "run"), ("npm", "exec"), ("pnpm", "exec"), ("pnpm", "dlx"), ("yarn", "exec"),
        ("yarn", "dlx"), ("poetry", "run"), ("pipenv", "run"), ("pipx", "run"),
        ("bundle", "exec"), ("hatch", "run"), ("pdm", "run"), ("conda", "run"), ("rye", "run"),
    }
)  # fmt: skip


def command_starts(argv: tuple[str, ...]) -> list[int]:
    """At most `MAX_VIEWS` starts: no real command hides behind that many wrappers, and a line
    that does is blocked by the dangerous-command judgement (`too_complex`)."""
    if not argv:
        return []  # a bare assignment runs nothing
    if not _wrapper_words(argv, 0):
        return [0]
    starts, pending, seen = [], [0], {0}
    while pending:
        start = pending.pop()
        starts.append(start)
        skip = _wrapper_words(argv, start)
        if not skip:
            continue
        looked = 0
        for index in range(start + skip, len(argv)):
            if looked >= _CANDIDATES:
                break  # bounded per wrapper, so a chain of wrappers stays linear
            if argv[index].startswith("-"):
                continue
            looked += 1
            if index not in seen and len(seen) < MAX_VIEWS:
                seen.add(index)
                pending.append(index)
    return sorted(starts)


def inline_script(argv: tuple[str, ...], start: int = 0) -> str | None:
    if start >= len(argv):
        return None
    name = program_name(argv[start])
    if name == "eval":
        return " ".join(argv[start + 1 :])
    if name not in SHELLS:
        return None
    for position in range(start + 1, len(argv)):
        word = argv[position]
        if not word.startswith(("-", "+")):
            return None  # a script file: its contents are not visible here
        if not word.startswith("--") and "c" in word[1:]:
            return argv[position + 1] if position + 1 < len(argv) else None
    return None


def views(argv: tuple[str, ...], depth: int = 0) -> Iterator[tuple[tuple[str, ...], int]]:
    for start in command_starts(argv):
        yield argv, start
        script = inline_script(argv, start) if depth < MAX_SCRIPT_DEPTH else None
        if script is not None:
            for inner in analyze_shell(script).commands:
                yield from views(inner.argv, depth + 1)


def _wrapper_words(argv: tuple[str, ...], start: int) -> int:
    """How many words at `start` name a wrapper or runner (0: not one)."""
    if start >= len(argv):
        return 0
    name = program_name(argv[start])
    if name in WRAPPER_COMMANDS or name in _RUNNERS:
        return 1
    if start + 1 < len(argv) and (name, argv[start + 1]) in _TWO_WORD_RUNNERS:
        return 2
    return 0
