"""Where tree-sitter-bash and bash can read the same text differently. Each such construct makes
a line unsafe (it may still be blocked, but never auto-approved), because a command bash runs
but the parse hides would run under another command's rule.

API (pure, linear in the text):
- `has_control_character(text)`: any C0 control character but tab and newline, or DEL. A CR is
  whitespace to tree-sitter and a word character to bash, so `\\` + CR + LF is a line
  continuation to one and a new command to the other.
- `joins_words(text)`: a backslash-newline inside a word (`r\\<newline>m` is `rm` to bash).
- `heredoc_delimiter_agrees(raw)`: bash ends a heredoc at the delimiter word after quote removal,
  tree-sitter at the raw token; they agree only for a plain word (`EOF`, `END_1`) or one wholly
  in single or double quotes with plain content (`'EOF'`, `"EOF"`). `E"O"F`, `\\EOF`, `E\\OF`,
  `$X` and `'E$F'` do not.
- `has_invisible_formatting(text)`: bidi controls and zero-width characters, which make what a
  human reads differ from what runs (a warning, not a parse problem).
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_CONTINUATION = re.compile(r"\\\n")
_PLAIN_DELIMITER = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.,:+%@=-]*")
_QUOTED_DELIMITER = re.compile(r"'([^']*)'|\"([^\"]*)\"")
# C1 controls, bidi embeddings/overrides/isolates, zero-width and other invisible formatting.
_INVISIBLE = re.compile(
    "[\x80-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)


def has_control_character(text: str) -> bool:
    return _CONTROL.search(text) is not None


def joins_words(text: str) -> bool:
    """A backslash-newline right after a word character or an escaped blank (`r\\<nl>m`,
    `the\\ \\<nl>e`): bash joins what follows into that word, tree-sitter does not."""
    for found in _CONTINUATION.finditer(text):
        backslash = found.start()
        if _backslashes_before(text, backslash) % 2:
            continue  # `\\\\<nl>`: an escaped backslash, then a plain newline
        previous = backslash - 1
        if previous < 0:
            continue
        if text[previous] not in " \t\n" or _backslashes_before(text, previous) % 2:
            return True
    return False


def _backslashes_before(text: str, index: int) -> int:
    count = 0
    while index - count - 1 >= 0 and text[index - count - 1] == "\\":
        count += 1
    return count


def heredoc_delimiter_agrees(raw: str) -> bool:
    if _PLAIN_DELIMITER.fullmatch(raw):
        return True
    quoted = _QUOTED_DELIMITER.fullmatch(raw)
    if quoted is None:
        return False
    content = quoted.group(1) if quoted.group(1) is not None else quoted.group(2)
    return _PLAIN_DELIMITER.fullmatch(content) is not None


def has_invisible_formatting(text: str) -> bool:
    return _INVISIBLE.search(text) is not None
