"""Per-program argument policy: arguments no remembered rule may cover, because they make the
program run other code, write files, or work outside the workspace. Like Codex's
`is_safe_command` (`find -exec`, `rg --pre`, `sed` scripts), but applied on top of a rule the
human granted rather than as a built-in safe list. Pure; one pass over the argv.

API:
- `argument_refusal(argv, consented=0) -> Refusal | None`: why a rule whose tokens cover
  `argv[:consented]` still may not cover `argv`. Reasons: `wrapper` (it runs the command in its
  arguments: `xargs`, `env cmd`, `timeout`, `find -exec`), `inline_code` (`sh -c`, `python -c`,
  `node -e`), `runs_code` (a flag or script that runs another program: `git -c`, `npm
  --script-shell`, `pytest -p`, `sed e`, `awk system()`, `tar --to-command`, `rsync -e`, `ssh -o
  ProxyCommand` ...), `writes_file` (`find -delete`, `sed -i`, `sort -o`, `curl -o`) and
  `outside_workspace` (`find /etc`, `git -C /elsewhere`, `pytest /tmp/x`). The last two are
  consented when the rule's own tokens hold the word (a `sed -i` rule covers `sed -i ...`); the
  others never are.
- `pattern_refusal(tokens) -> str | None`: why a bash allow rule may not exist (first word a
  wrapper, `eval`/`source`/`exec`, or a token refused above for good); an English sentence.
- `POLICIES`: the table, one row per program (see `_Policy`).

Flags are matched as written, `--long=value`, unambiguous GNU abbreviations (`--to-com`), and
short letters anywhere in a cluster (`rsync -avze`). A path is outside the workspace when it is
absolute, starts with `~`, climbs with `..` or holds an expansion. Limits kept on purpose:
program names are looked up by basename (`/usr/bin/git` is git); what a program reads from its
own configuration files (a git alias, a Makefile) is the rule's business, not this table's.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from jarvis.core.policy.canonical import Canonical, canonical_command
from jarvis.core.policy.program_policies import (
    CONSENTABLE,
    INLINE,
    POLICIES,
    WRITES,
    ProgramPolicy,
    Reason,
    Refusal,
    is_outside_workspace,
)
from jarvis.core.policy.programs import (
    DYNAMIC_EVAL_COMMANDS,
    WRAPPER_COMMANDS,
    is_interpreter,
    program_name,
)
from jarvis.core.policy.shell import SimpleCommand

__all__ = [
    "POLICIES",
    "Reason",
    "Refusal",
    "argument_refusal",
    "canonical_refusal",
    "command_refusal",
    "pattern_refusal",
    "reads_code_from_input",
]

# Where a command's standard input can carry code written in the line (or fetched by it).
_CODE_INPUTS = frozenset({"pipe", "heredoc", "herestring", "process_substitution"})
_INLINE_FLAGS = frozenset({"-c", "-e", "-E", "-r", "--eval", "--command", "-Command"})

# Real options that are also the start of a refused one: not abbreviations.
_EXACT_OPTIONS = frozenset({"--text", "--pdb", "--exec", "--output-indicator-new"})


@functools.lru_cache(maxsize=8192)  # the hot path repeats the same few commands
def argument_refusal(argv: tuple[str, ...], consented: int = 0) -> Refusal | None:
    """The argv as written, then its canonical form (`canonical`): a global option no rule may
    cover, and the policy of the program it runs (`python -m pytest` gets pytest's)."""
    refusal = _written_refusal(argv, consented)
    canon = None if refusal is not None else canonical_command(argv)
    if canon is None:
        return refusal
    found = canon.refusal
    if found is not None and found.reason in CONSENTABLE and found.position < consented:
        found = None
    return found or _canonical_refusal(canon, sum(p < consented for p in canon.positions))


def canonical_refusal(argv: tuple[str, ...], consented: int) -> Refusal | None:
    """Why a rule whose tokens cover `canonical_command(argv).argv[:consented]` may not cover
    `argv`: any global option it refuses (never consented: the rule did not name it), the
    written argv's policy, and the canonical argv's."""
    canon = canonical_command(argv)
    if canon is None:
        return _written_refusal(argv, 0)
    return canon.refusal or _written_refusal(argv, 0) or _canonical_refusal(canon, consented)


def _canonical_refusal(canon: Canonical, consented: int) -> Refusal | None:
    if len(canon.argv) == canon.positions[-1] + 1 and canon.positions[0] == 0:
        return None  # nothing was taken out: the written argv was judged already
    inner = _written_refusal(canon.argv, consented)
    if inner is None:
        return None
    return Refusal(inner.reason, inner.word, canon.positions[inner.position])


def _written_refusal(argv: tuple[str, ...], consented: int) -> Refusal | None:
    if not argv:
        return None
    name = program_name(argv[0])
    refusal = _wrapper_refusal(name, argv)
    policy = POLICIES.get(name)
    if refusal is None and policy is not None:
        refusal = _flag_refusal(policy, argv)
        if refusal is None and policy.judge is not None:
            refusal = policy.judge(argv)
    if refusal is not None and refusal.reason in CONSENTABLE and refusal.position < consented:
        return None
    return refusal


def command_refusal(
    command: SimpleCommand, consented: int = 0, *, canonical: bool = False
) -> Refusal | None:
    """`argument_refusal` (`canonical_refusal` when the rule matched the canonical form), plus a
    shell or interpreter reading its code from a pipe, heredoc or here-string (`bash <<'EOF'
    ... EOF` is `bash -c` in disguise)."""
    argv = command.words
    if command.stdin in _CODE_INPUTS and reads_code_from_input(argv):
        return Refusal(INLINE, argv[0], 0)
    if canonical:
        return canonical_refusal(argv, consented)
    return argument_refusal(argv, consented)


def reads_code_from_input(argv: tuple[str, ...]) -> bool:
    """A shell or interpreter given no script file and no inline code: it runs its input."""
    if not argv or not is_interpreter(program_name(argv[0])):
        return False
    for word in argv[1:]:
        if word in ("-s", "-"):
            return True
        if word in _INLINE_FLAGS or (word[:1] == "-" and word[:2] != "--" and "c" in word):
            return False  # code given inline: the input is only its data
        if not word.startswith("-"):
            return False  # a script file
    return True


def pattern_refusal(tokens: tuple[str, ...]) -> str | None:
    if not tokens:
        return None
    name = program_name(tokens[0])
    if name in WRAPPER_COMMANDS:
        return (
            f"'{tokens[0]}' runs the command given in its arguments; "
            "a rule for it would approve any command"
        )
    if tokens[0] in DYNAMIC_EVAL_COMMANDS:
        return f"'{tokens[0]}' runs code that is not visible in the line; it cannot have a rule"
    refusal = argument_refusal(tokens, consented=len(tokens))
    if refusal is not None:
        return (
            f"'{refusal.word}' makes '{name}' run other code ({refusal.reason}); "
            "it cannot have a rule"
        )
    return None


# how flags are matched


def _flag_refusal(policy: ProgramPolicy, argv: tuple[str, ...]) -> Refusal | None:
    subcommand: str | None = None
    # A flag's verdict depends only on the word, the subcommand and the next word: one seen
    # before with the same three passed already (`-x -x -x …` is checked once, not 33,000 times).
    passed: set[tuple[str, str | None, str]] = set()
    index = 1
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return None
        if not word.startswith(("-", "+")) or word in ("-", "+"):
            subcommand = word if subcommand is None else subcommand
            index += 1
            continue
        seen = (word, subcommand, _next(argv, index))
        if seen not in passed:
            refusal = _word_refusal(policy, subcommand, argv, index)
            if refusal is not None:
                return refusal
            passed.add(seen)
        skip = subcommand is None and word in policy.valued
        index += 2 if skip else 1
    return None


def _word_refusal(
    policy: ProgramPolicy, subcommand: str | None, argv: tuple[str, ...], index: int
) -> Refusal | None:
    word = argv[index]
    tables = [policy.flags, policy.subcommands.get(subcommand or "", {})]
    if subcommand is None:
        tables.append(policy.global_flags)
    for table in tables:
        found = _match(table, word, policy.clusters)
        if found is not None and not _to_stdout(found, word, argv, index):
            return Refusal(found[0], word, index)
    if _takes_path(policy, word) and is_outside_workspace(_attached(word) or _next(argv, index)):
        return Refusal("outside_workspace", word, index)
    return None


def _match(table: Mapping[str, Reason], word: str, clusters: bool) -> tuple[Reason, str] | None:
    """The refused flag `word` spells, with the reason; None when it spells none."""
    if not table:
        return None
    if word.startswith("+"):
        return (table["+"], "+") if "+" in table else None
    name = word.split("=", 1)[0]
    if name in table:
        return table[name], name
    if word.startswith("--"):
        # GNU and git accept any unambiguous prefix of a long option (`--to-com`)
        if len(name) > 3 and name not in _EXACT_OPTIONS:
            return next(((r, f) for f, r in table.items() if f.startswith(name)), None)
        return None
    shorts = _short_flags(table)
    found = shorts.get(word[:2])  # `-Cdir`, `-oProxyCommand=..`
    if found is not None:
        return found
    if clusters:
        for letter in word[1:]:  # `-avze`
            found = shorts.get("-" + letter)
            if found is not None:
                return found
        return None
    lowered = word.lower()
    for flag, reason in table.items():
        if len(word) > 2 and flag.lower().startswith(lowered):
            return reason, flag  # `-Comm` for pwsh's `-Command`, `-execdir`
    return None


_SHORTS: dict[int, dict[str, tuple[Reason, str]]] = {}


def _short_flags(table: Mapping[str, Reason]) -> dict[str, tuple[Reason, str]]:
    """The table's one-letter flags, indexed once (tables are module constants)."""
    shorts = _SHORTS.get(id(table))
    if shorts is None:
        shorts = {f: (r, f) for f, r in table.items() if len(f) == 2 and f[0] == "-"}
        _SHORTS[id(table)] = shorts
    return shorts


def _to_stdout(found: tuple[Reason, str], word: str, argv: tuple[str, ...], index: int) -> bool:
    """`wget -qO- url`, `curl -o - url`: an output flag that writes to standard output."""
    reason, flag = found
    if reason != WRITES:
        return False
    if word.startswith("--"):
        value = word.split("=", 1)[1] if "=" in word else _next(argv, index)
    else:
        rest = word[word.find(flag[-1]) + 1 :] if len(flag) == 2 else ""
        value = rest or _next(argv, index)
    return value in ("-", "/dev/stdout")


def _next(argv: tuple[str, ...], index: int) -> str:
    return argv[index + 1] if index + 1 < len(argv) else ""


def _takes_path(policy: ProgramPolicy, word: str) -> bool:
    name = word.split("=", 1)[0]
    return name in policy.path_flags or (word[:2] in policy.path_flags and len(word) > 2)


def _attached(word: str) -> str:
    if word.startswith("--"):
        return word.split("=", 1)[1] if "=" in word else ""
    return word[2:]


# wrappers, shells and interpreters


_SHORT_CODE_FLAGS: Mapping[str, frozenset[str]] = {
    "sh": frozenset("cs"), "bash": frozenset("cs"), "dash": frozenset("cs"),
    "zsh": frozenset("cs"), "ksh": frozenset("cs"), "mksh": frozenset("cs"),
    "ash": frozenset("cs"), "yash": frozenset("cs"), "fish": frozenset("cC"),
    "python": frozenset("c"), "python2": frozenset("c"), "python3": frozenset("c"),
    "perl": frozenset("eE"), "ruby": frozenset("e"), "php": frozenset("rBREFcd"),
    "node": frozenset("epr"), "nodejs": frozenset("epr"), "bun": frozenset("ep"),
    "pwsh": frozenset("ce"), "lua": frozenset("e"),
}  # fmt: skip
_INTERPRETER_VALUED = frozenset({"-W", "-X", "-I", "-C", "--title", "--input-type"})
_LONG_CODE_FLAGS = frozenset(
    {
        "--command", "--eval", "--print", "--require", "--import", "--loader",
        "--experimental-loader", "--init-command", "--rcfile", "--init-file", "--env-file",
        "-command", "-encodedcommand", "-ec",
    }
)  # fmt: skip


def _wrapper_refusal(name: str, argv: tuple[str, ...]) -> Refusal | None:
    if name == "env":
        return _env_refusal(argv)
    if name in ("command", "builtin") and len(argv) > 1 and argv[1] in ("-v", "-V"):
        return None  # `command -v git` looks a name up, runs nothing
    if name in WRAPPER_COMMANDS and name != "find":
        return Refusal("wrapper", argv[0], 0)
    if name in DYNAMIC_EVAL_COMMANDS:
        return Refusal(INLINE, argv[0], 0)
    return _inline_code_refusal(name, argv)


def _env_refusal(argv: tuple[str, ...]) -> Refusal | None:
    for index, word in enumerate(argv[1:], start=1):
        if word.startswith(("-S", "--split-string")):
            return Refusal("wrapper", word, index)
        if argv[index - 1] in ("-u", "--unset", "-C", "--chdir"):
            continue  # the value of a flag
        if not word.startswith("-") and "=" not in word:
            return Refusal("wrapper", word, index)  # `env [VAR=x] cmd` runs cmd
    return None  # `env` or `env -u X`: prints the environment


def _inline_code_refusal(name: str, argv: tuple[str, ...]) -> Refusal | None:
    short = _SHORT_CODE_FLAGS.get(name)
    if short is None and not name.startswith(("python", "pypy", "perl", "ruby", "node")):
        return None
    short = short or frozenset("ce")
    for index, word in enumerate(argv[1:], start=1):
        if word == "-" or word == "--":
            return Refusal(INLINE, word, index) if word == "-" else None
        if not word.startswith("-"):
            if argv[index - 1] in _INTERPRETER_VALUED:
                continue  # the value of `-W`, `-X`, `-I`: not yet the script
            return None  # a script file: its contents are its rule's business
        lowered = word.lower().split("=", 1)[0]
        if lowered in _LONG_CODE_FLAGS or (
            not word.startswith("--") and any(letter in short for letter in word[1:])
        ):
            return Refusal(INLINE, word, index)
    return None
