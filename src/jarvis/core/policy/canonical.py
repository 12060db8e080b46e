"""The canonical command: a program's global options taken out, so rules see the subcommand the
program will run wherever it is written (`git --no-pager -C . push` is `git push`, `npm --prefix
x publ` is `npm publish`, `python -X dev -m pip install` is `pip install`). Pure and cached.

API:
- `has_canonical(name)`: a program with a table, python, or `git-<subcommand>`.
- `canonical_command(argv) -> Canonical | None`: None for a program that has no table in
  `program_globals` (and for python without `-m`). `Canonical.argv` keeps the program word as
  written (a module for `python -m`), then the words with every known global option and its
  value removed (for programs whose options may come anywhere, `anywhere`, every known option;
  unknown ones after the subcommand stay as arguments). `positions` maps each word back to the
  written argv. `refusal` is the first global option no rule may cover: a `config` option
  (`runs_code`: `git -c`, `--git-dir`, `--exec-path=`, `kubectl --kubeconfig`...), a `remote`
  one or a `path` option outside the workspace (`outside_workspace`, which a rule naming the
  option covers: `git -C /x`, `npm --prefix /x`, `docker -H tcp://x`). `exact` is False when
  an option before the subcommand is not in the table: the program may read it with a value,
  so where its subcommand is is not certain.
- `deny_forms(argv) -> tuple[argv, ...]`: every form a deny rule is matched against besides the
  argv as written: the canonical one; when not `exact`, the program followed by each written
  word from every positional word on (errs toward blocking); for `anywhere` programs the
  positional words alone; `git-push` as `git push`; and an alias given inline expanded
  (`git -c alias.p=push p`; a shell alias `-c 'alias.p=!git push'` by the commands of its
  script); and each form respelled by the program's `spellings` (`git send-pack` and
  `docker image push` as `git push` and `docker push`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from jarvis.core.policy.program_globals import GLOBALS, Option, ProgramGlobals
from jarvis.core.policy.program_policies import Refusal, is_outside_workspace
from jarvis.core.policy.programs import program_name
from jarvis.core.policy.shell import analyze_shell

_PYTHON = re.compile(r"python[0-9.]*|pypy[0-9.]*")
_PYTHON_VALUED = frozenset("WX")  # `-W ignore`, `-X dev` (or attached: `-Wignore`)
_CAMEL = re.compile(r"[A-Z]")


@dataclass(frozen=True, slots=True)
class Canonical:
    argv: tuple[str, ...]
    positions: tuple[int, ...]
    refusal: Refusal | None
    exact: bool
    subcommand: int = -1  # written index of the subcommand word (-1: none)


@functools.lru_cache(maxsize=1024)  # called for every simple command the gate matches
def has_canonical(name: str) -> bool:
    """Whether `canonical_command` or `deny_forms` may change a command of this program."""
    return name in GLOBALS or name.startswith("git-") or _PYTHON.fullmatch(name) is not None


@functools.lru_cache(maxsize=4096)
def canonical_command(argv: tuple[str, ...]) -> Canonical | None:
    if not argv:
        return None
    name = program_name(argv[0])
    table = GLOBALS.get(name)
    if table is not None:
        return _scan(argv, table)
    if _PYTHON.fullmatch(name):
        return _python(argv)
    return None


@functools.lru_cache(maxsize=4096)
def deny_forms(argv: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    if not argv:
        return ()
    name = program_name(argv[0])
    if name.startswith("git-") and len(name) > 4:  # `/usr/lib/git-core/git-push`
        dashed = (argv[0][: -len(name)] + "git", name[4:], *argv[1:])
        return tuple(dict.fromkeys((dashed, *_respelled([dashed], GLOBALS["git"]))))
    canon = canonical_command(argv)
    if canon is None:
        return ()
    forms: list[tuple[str, ...]] = [canon.argv]
    table = GLOBALS.get(name)
    if not canon.exact:
        forms.extend((argv[0], *argv[index:]) for index in _positional_indices(argv))
    elif table is not None and table.anywhere:
        forms.append((argv[0], *(argv[i] for i in _positional_indices(argv))))
    if name == "git":
        forms.extend(_inline_aliases(argv, canon))
    if table is not None and table.spellings:
        forms.extend(_respelled(forms, table))
    return tuple(dict.fromkeys(form for form in forms if form != argv))


def _respelled(forms: list[tuple[str, ...]], table: ProgramGlobals) -> list[tuple[str, ...]]:
    """Each form whose subcommand words are another spelling (`git send-pack`, `docker image
    push`) written the way a deny rule names it (`git push`, `docker push`)."""
    found = []
    for form in forms:
        for words, meaning in table.spellings.items():
            if form[1 : 1 + len(words)] == words:
                found.append((form[0], *meaning, *form[1 + len(words) :]))
    return found


def _scan(argv: tuple[str, ...], table: ProgramGlobals) -> Canonical:
    words, positions = [argv[0]], [0]
    refusal: Refusal | None = None
    exact, subcommand, index = True, -1, 1
    while index < len(argv):
        word = argv[index]
        if (subcommand >= 0 and not table.anywhere) or (word == "--" and table.anywhere):
            words.extend(argv[index:])
            positions.extend(range(index, len(argv)))
            break
        if subcommand < 0 and word in table.renames and word not in table.options:
            words.append(table.renames[word])
            positions.append(index)
            subcommand, index = index, index + 1
            continue
        if not word.startswith("-") or word == "-":
            words.append(word if subcommand >= 0 else _resolve(table, word))
            positions.append(index)
            subcommand = index if subcommand < 0 else subcommand
            index += 1
            continue
        option, value, used = _option(table, argv, index)
        if option is None:
            if subcommand < 0:
                exact = False  # the program may take the next word as this option's value
            else:
                words.append(word)  # an option of the subcommand
                positions.append(index)
            index += 1
            continue
        if refusal is None:
            refusal = _judge(option, value, word, index)
        index += used
    return Canonical(tuple(words), tuple(positions), refusal, exact, subcommand)


def _option(
    table: ProgramGlobals, argv: tuple[str, ...], index: int
) -> tuple[Option | None, str, int]:
    """The option at `argv[index]`, its value and how many words it takes."""
    word = argv[index]
    following = argv[index + 1] if index + 1 < len(argv) else ""
    name, equals, attached = word.partition("=")
    option = table.options.get(name)
    if option is not None:
        if equals:
            if option.form == "next":
                return None, "", 1  # `git -C=dir` is not an option git knows
            return option, attached, 1
        if option.kind == "flag" or option.form == "equals":
            return option, "", 1
        return option, following, 2
    if not word.startswith("--") and len(word) > 2:
        option = table.options.get(word[:2])
        if option is not None and option.form == "pflag" and option.kind != "flag":
            value = word[2:]
            return option, value[1:] if value.startswith("=") else value, 1  # `-nkube`, `-n=k`
    return None, "", 1


def _judge(option: Option, value: str, word: str, index: int) -> Refusal | None:
    if option.kind == "config" and (option.form != "equals" or "=" in word):
        return Refusal("runs_code", word, index)
    if option.kind == "remote" or (option.kind == "path" and is_outside_workspace(value)):
        return Refusal("outside_workspace", word, index)  # consented by a rule naming it
    return None


def _resolve(table: ProgramGlobals, word: str) -> str:
    """The subcommand the program runs for `word` (npm's `deref`: `publ` -> `publish`)."""
    if not table.subcommands:
        return word
    if _CAMEL.search(word):
        word = _CAMEL.sub(lambda found: "-" + found.group(0).lower(), word)
    if word in table.subcommands:
        return word
    resolved = table.aliases.get(word)
    if resolved is None and table.abbreviations:
        names = [n for n in (*table.subcommands, *table.aliases) if n.startswith(word)]
        resolved = names[0] if len(names) == 1 else None
        while resolved is not None and resolved in table.aliases:
            resolved = table.aliases[resolved]
    return resolved or word


def _positional_indices(argv: tuple[str, ...]) -> list[int]:
    found = []
    for index in range(1, len(argv)):
        word = argv[index]
        if word == "--":
            break
        if not word.startswith("-") or word == "-":
            found.append(index)
    return found


def _inline_aliases(argv: tuple[str, ...], canon: Canonical) -> list[tuple[str, ...]]:
    """`git -c alias.p=push p` runs push; `git -c 'alias.p=!git push' p` runs the script."""
    if canon.subcommand < 0:
        return []
    name = argv[canon.subcommand]
    forms: list[tuple[str, ...]] = []
    for index in range(1, canon.subcommand):
        if argv[index - 1] != "-c":
            continue
        key, _, value = argv[index].partition("=")
        if key.lower() != f"alias.{name.lower()}" or not value:
            continue
        if value.startswith("!"):  # a shell alias: the commands of its script
            for inner in analyze_shell(value[1:]).commands:
                forms.extend((inner.argv, *deny_forms(inner.argv)))
        else:
            at = canon.positions.index(canon.subcommand)
            forms.append((*canon.argv[:at], *value.split(), *canon.argv[at + 1 :]))
    return forms


def _python(argv: tuple[str, ...]) -> Canonical | None:
    """`python [options] -m module args`: the module and its args; None for a script, `-c`
    code or standard input (the argument policy judges those)."""
    index = 1
    while index < len(argv):
        word = argv[index]
        if not word.startswith("-") or word in ("-", "--"):
            return None
        if word.startswith("--"):
            index += 2 if word == "--check-hash-based-pycs" else 1
            continue
        for at, letter in enumerate(word[1:], start=1):
            if letter == "c":
                return None
            rest = word[at + 1 :]
            if letter == "m":
                start = index if rest else index + 1
                module = rest or (argv[start] if start < len(argv) else "")
                if not module:
                    return None
                tail = range(start + 1, len(argv))
                return Canonical(
                    (module, *(argv[i] for i in tail)), (start, *tail), None, True, start
                )
            if letter in _PYTHON_VALUED:
                index += 0 if rest else 1
                break
        index += 1
    return None
