"""The fast path of `analyze_shell`: a line made only of plain words joined by `&&`, `||`, `|`,
`;`, `&` and newlines is read by a tokenizer, without tree-sitter. A plain word is characters
bash never treats specially, and single- or double-quoted parts in which nothing expands
(`'any text'`, `"no dollar, backquote or backslash"`); its value is the text with the quotes
removed. Bash reads such a line one way only; anything else (`$`, `\\`, `<`, `#`, `{`, `~`,
globs, control characters, a keyword or `=` where a command starts, an empty command) returns
None and the tree-sitter walk decides. Linear: one `finditer` pass.

API: `plain_analysis(line) -> ShellAnalysis | None`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from jarvis.core.policy.shell_types import ShellAnalysis, SimpleCommand, UnsafeReason
from jarvis.core.policy.shell_walk import is_dynamic_eval

_PLAIN_CHARS = r"[A-Za-z0-9_./:,+%@^=-]"
_CONTROL = "\\x00-\\x08\\x0b-\\x1f\\x7f"
_WORD_PATTERN = rf"(?:{_PLAIN_CHARS}++|'[^'{_CONTROL}]*+'|\"[^\"$`\\\\{_CONTROL}]*+\")++"
_WORD = re.compile(_WORD_PATTERN)
_SEGMENT = re.compile(rf"((?:{_WORD_PATTERN}|[ \t]++)*+)(&&|\|\||[|;&\n]|\Z)")
_OPERATOR = re.compile(r"(&&|\|\||[|;&\n])")
_SPECIAL = re.compile(r"[^A-Za-z0-9_./:,+%@^=\- \t\n;&|]")
_QUOTES = re.compile(r"'([^']*)'|\"([^\"]*)\"")
_FIRST = re.compile(r"[A-Za-z0-9_./][A-Za-z0-9_./:,+%@^-]*")  # no `=`, no job spec `%1`
# Words that are syntax, not commands, where a command starts.
_KEYWORDS = frozenset(
    {"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
     "do", "done", "in", "function", "time", "coproc"}
)  # fmt: skip


def plain_analysis(line: str) -> ShellAnalysis | None:
    if "'" in line or '"' in line:
        return _analysis(_quoted_segments(line))
    if _SPECIAL.search(line):
        return None  # one C-speed look settles most lines that are not plain
    return _analysis(_split_segments(line))


def _split_segments(line: str) -> Iterator[tuple[list[str], str]]:
    """Without quotes, words are what `str.split` finds between operators (C speed)."""
    pieces = _OPERATOR.split(line)  # command text, operator, command text, ...
    for index in range(0, len(pieces) - 1, 2):
        yield pieces[index].split(), pieces[index + 1]
    yield pieces[-1].split(), ""


def _quoted_segments(line: str) -> Iterator[tuple[list[str], str]]:
    """One regex match per command (possessive: no backtracking, linear), then its words."""
    position, end = 0, len(line)
    while True:
        found = _SEGMENT.match(line, position)
        if found is None:
            yield [], "other"  # a character that is not plain
            return
        words = [
            _QUOTES.sub(_unquote, word) if "'" in word or '"' in word else word
            for word in _WORD.findall(found.group(1))
        ]
        operator, position = found.group(2), found.end()
        yield words, operator
        if not operator:
            return
        if position >= end:
            yield [], ""
            return


def _analysis(segments: Iterable[tuple[list[str], str]]) -> ShellAnalysis | None:
    """Commands from (words, the operator after them) pairs; the last operator is ""."""
    commands: list[SimpleCommand] = []
    group_start = 0  # first command of the current and-or list (what `&` sends to background)
    stdin_pipe = pending = False  # pending: after `&&`, `||`, `|` a command must follow
    reasons: dict[UnsafeReason, None] = {}
    for words, operator in segments:
        if operator == "other":
            return None
        if not words:
            if operator in ("\n", ""):
                continue  # a blank line, a newline after `&&`/`||`/`|`, or the end
            return None  # an empty command: a syntax error bash reports, tree-sitter flags
        if words[0] in _KEYWORDS or not _FIRST.fullmatch(words[0]):
            return None  # a keyword, an assignment or a quoted name: the tree walk reads it
        piped = operator == "|"
        commands.append(_command(words, stdin_pipe, piped))
        if is_dynamic_eval(words):
            reasons.setdefault("dynamic_eval")
        stdin_pipe, pending = piped, operator in ("&&", "||", "|")
        if operator == "&":
            for index in range(group_start, len(commands)):
                commands[index] = _background(commands[index])
        if operator in ("&", ";", "\n"):
            group_start = len(commands)
    return ShellAnalysis(tuple(commands), tuple(reasons)) if commands and not pending else None


def _unquote(found: re.Match[str]) -> str:
    return found.group(1) if found.group(1) is not None else found.group(2)


def _command(words: list[str], stdin_pipe: bool, piped: bool) -> SimpleCommand:
    return SimpleCommand(tuple(words), stdin="pipe" if stdin_pipe else "", piped=piped)


def _background(command: SimpleCommand) -> SimpleCommand:
    return SimpleCommand(command.words, stdin=command.stdin, piped=command.piped, background=True)
