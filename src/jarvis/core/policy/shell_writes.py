"""The words a simple command writes to or deletes, and where `cd` takes the line: plain data
and pure functions, read by `fence` to ask about a write outside the workspace even when a
rule (`*` too) would approve the line. Redirections are judged by the shell walker already
(`write_redirection`); this is the files programs write by their operands.

API:
- `written_words(argv) -> tuple[str, ...]`: the operands the program writes, creates, moves
  or deletes (`tee f`, `cp a b` -> `b`, `cp -t dir a`, `mv a b` -> both, `dd of=f`, `touch`,
  `rm`, `chmod` …); empty for a program not in the table.
- `directory_change(argv) -> str | None`: for `cd`/`pushd`, the directory as written, `~` for
  a bare `cd`; `""` when it cannot be known from the words (`cd -`, `popd`, `cd -P` followed
  by nothing); None for any other command.
"""

from __future__ import annotations

# every operand is written: created, changed, moved away or deleted
_ALL_OPERANDS = frozenset(
    [
        "tee",
        "touch",
        "mkdir",
        "rmdir",
        "rm",
        "unlink",
        "truncate",
        "shred",
        "mv",
        "chmod",
        "chown",
        "chgrp",
        "mkfifo",
        "mknod",
    ]
)
# the last operand is written (the others are read), or the `-t` directory
_LAST_OPERAND = frozenset(["cp", "install", "ln", "link", "rsync", "scp"])
_TARGET_OPTIONS = ("-t", "--target-directory")
_ASSIGNED = {"dd": ("of=",)}
_DIRECTORY_CHANGES = frozenset({"cd", "pushd"})
_UNKNOWN_DIRECTORY = frozenset({"popd"})


def _base(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _operands(argv: tuple[str, ...]) -> list[str]:
    found, options = [], True
    for word in argv[1:]:
        if options and word == "--":
            options = False
        elif not options or not word.startswith("-") or word == "-":
            found.append(word)
    return found


def written_words(argv: tuple[str, ...]) -> tuple[str, ...]:
    if not argv:
        return ()
    name = _base(argv[0])
    if name in _ALL_OPERANDS:
        return tuple(_operands(argv))
    if name in _LAST_OPERAND:
        targets = [
            argv[i + 1] if word in _TARGET_OPTIONS else word.partition("=")[2]
            for i, word in enumerate(argv[:-1] if argv else ())
            if word in _TARGET_OPTIONS or word.startswith("--target-directory=")
        ]
        if argv[-1].startswith("--target-directory="):
            targets.append(argv[-1].partition("=")[2])
        operands = _operands(argv)
        return tuple(targets or operands[-1:])
    prefixes = _ASSIGNED.get(name)
    if prefixes:
        return tuple(
            word[len(prefix) :]
            for word in argv[1:]
            for prefix in prefixes
            if word.startswith(prefix)
        )
    return ()


def directory_change(argv: tuple[str, ...]) -> str | None:
    if not argv:
        return None
    name = argv[0]
    if name in _UNKNOWN_DIRECTORY:
        return ""
    if name not in _DIRECTORY_CHANGES:
        return None
    operands = _operands(argv)
    if not operands:
        return "~" if name == "cd" and not any(w in ("-", "+") for w in argv[1:]) else ""
    target = operands[0]
    if target in ("-", "+") or target.startswith(("+", "-")) or "$" in target or "`" in target:
        return ""
    return target
