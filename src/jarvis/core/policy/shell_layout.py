"""Checks that tree-sitter accounted for every byte of a line the way bash splits it. Found by
the differential test: tree-sitter-bash drops an escaped blank (`cat \\  a`), merges `} }` into
one word, splits `{\\#b` into two, and keeps `\\ ` + newline inside a word; bash does none of
that. Each such layout makes the line a `parse_error` (fail closed). Pure and linear.

API:
- `layout_agrees(node, source) -> bool`: between the children of `node` only blanks (space, tab,
  newline, backslash-newline), and no two word nodes touching (bash reads them as one word:
  `{\\#b`, and a heredoc delimiter split in two, `<<'E'OF`).
- `outside_agrees(root, source) -> bool`: nothing but blanks outside the tree (tree-sitter
  starts the tree after a leading `\\ `).
- `word_agrees(text) -> bool`: a `word` node holds no unescaped blank.
- `ARGUMENT_KINDS`: node types that are (parts of) a word.
"""

from __future__ import annotations

import re

from tree_sitter import Node

ARGUMENT_KINDS = frozenset(
    {
        "word", "string", "raw_string", "concatenation", "number", "simple_expansion",
        "expansion", "command_substitution", "process_substitution", "arithmetic_expansion",
        "ansi_c_string", "translated_string",
    }
)  # fmt: skip
# Nodes that are a word to bash: two of them touching are one word (`{\\#b`, `<<'E'OF`).
_WORDLIKE = ARGUMENT_KINDS | {"command_name", "heredoc_start"}
_BLANKS = re.compile(rb"(?:[ \t\n]|\\\n)*")
_SAME_LINE_BLANKS = re.compile(rb"(?:[ \t]|\\\n)*")
_REDIRECTS = frozenset({"file_redirect", "herestring_redirect"})
_ESCAPED = re.compile(r"\\.", re.DOTALL)
_BLANK = re.compile(r"[ \t\n]")


def layout_agrees(node: Node, source: bytes, *, lines: bool = True) -> bool:
    """`lines=False` for a command and its redirections: a bare newline inside one is where bash
    starts the next command (tree-sitter once read `ca<newline>t --` as one command)."""
    blanks = _BLANKS if lines else _SAME_LINE_BLANKS
    end, previous = node.start_byte, None
    for child in node.children:
        start = child.start_byte
        if start > end:
            if not blanks.fullmatch(source, end, start):
                return False
        elif previous is not None and _ends_word(previous) and _starts_word(child):
            return False
        end, previous = child.end_byte, child
    return end >= node.end_byte or blanks.fullmatch(source, end, node.end_byte) is not None


def _starts_word(node: Node) -> bool:
    """A word, or a redirection that starts with a file descriptor (`2>`)."""
    if node.type in _WORDLIKE:
        return True
    first = node.child(0) if node.type in _REDIRECTS else None
    return first is not None and first.type == "file_descriptor"


def _ends_word(node: Node) -> bool:
    """A word, or a redirection whose target word ends it (`<<<'w w'` then `\\``)."""
    if node.type in _WORDLIKE:
        return True
    last = node.child(node.child_count - 1) if node.type in _REDIRECTS else None
    return last is not None and last.type in _WORDLIKE


def outside_agrees(root: Node, source: bytes) -> bool:
    """Only blanks before and after the whole tree."""
    before = _BLANKS.fullmatch(source, 0, root.start_byte)
    return before is not None and _BLANKS.fullmatch(source, root.end_byte) is not None


def word_agrees(text: str) -> bool:
    bare = _ESCAPED.sub("", text) if "\\" in text else text
    return _BLANK.search(bare) is None
