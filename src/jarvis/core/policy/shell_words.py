"""Reading one word the way bash does after parsing: quotes removed, escapes applied, and every
expansion or substitution inside it noticed (substitutions are walked as commands too).

`WordReader` is the word half of the shell walker in `shell_walk.py`; it holds no state of its own.
Everything here is linear in the length of the word: a 100 KB word costs microseconds per KB.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from jarvis.core.policy.shell_layout import word_agrees
from jarvis.core.policy.shell_types import UnsafeReason

_UNQUOTED_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_DQUOTED_ESCAPE = re.compile(r"\\([$`\"\\\n])")
_EXPANSIONS = frozenset(
    {"simple_expansion", "expansion", "arithmetic_expansion", "brace_expression", "ansi_c_string"}
)
_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})
# A command of words made only of characters bash never treats specially, separated by blanks:
# read by splitting its text rather than visiting each word's node (a 100 KB line of such words
# costs ~1 ms this way, ~40 ms node by node). The first word has no `=` (no assignment).
_PLAIN_COMMAND = re.compile(
    rb"[A-Za-z0-9_./:,+%@^-][A-Za-z0-9_./:,+%@^-]*(?:[ \t]+[A-Za-z0-9_./:,+%@^=-]+)*"
)


class WordReader:
    """Mixed into the walker, which provides `flag`, `walk_substitution` and `nested`."""

    _source: bytes

    if TYPE_CHECKING:  # provided by the walker; declared for type checking only

        def flag(self, reason: UnsafeReason) -> None: ...

        def walk_substitution(self, node: Node, slot: int) -> None:
            """Walk the commands of `$(..)`, backticks or `<(..)` held by command `slot`."""

        def nested(self, node: Node, context: Any = None) -> None: ...

    def plain_words(self, command: Node) -> list[str] | None:
        """The words of a command of plain words only, else None (read it node by node)."""
        raw = self._source[command.start_byte : command.end_byte]
        if _PLAIN_COMMAND.fullmatch(raw) is None:
            return None
        words = raw.decode("utf-8").split()
        return words if command.named_child_count == len(words) else None

    def argument(self, node: Node, slot: int) -> str:
        literal = self.literal(node, slot)
        if "{" in literal and has_brace_expansion(_unquoted_skeleton(node)):
            self.flag("expansion")
        return literal

    def assignment_word(self, node: Node, slot: int) -> str:
        parts: list[str] = []
        for child in node.children:
            if child.type in ("variable_name", "subscript", "=", "+="):
                self.scan(child)
                parts.append(_text(child))
            else:
                parts.append(self.literal(child, slot))
        return "".join(parts)

    def literal(self, node: Node, slot: int) -> str:
        kind = node.type
        if kind == "word":
            text = _text(node)
            if not word_agrees(text):
                self.flag("parse_error")  # tree-sitter kept a blank bash splits at (`} }`)
            return _UNQUOTED_ESCAPE.sub(_unescape, text) if "\\" in text else text
        if kind == "number":
            return _text(node)
        if kind == "raw_string":
            return _text(node)[1:-1]
        if kind == "string":
            return self._double_quoted(node, slot)
        if kind == "concatenation":
            return "".join(self.literal(child, slot) for child in node.children)
        if kind in _SUBSTITUTIONS:
            self.flag(
                "command_substitution" if kind == "command_substitution" else "process_substitution"
            )
            self.walk_substitution(node, slot)
        elif kind in _EXPANSIONS:
            self.flag("expansion")
            self.scan(node)
        else:
            self.flag("parse_error")
            self.scan(node)
        return _text(node)

    def _double_quoted(self, node: Node, slot: int) -> str:
        """The string's content. Text between its children is content too (tree-sitter leaves
        the newline of `"a<newline>b"` out of every child), and so is text it puts in the
        quote tokens themselves (`"  "` is one closing token holding two spaces)."""
        parts: list[str] = []
        children = node.children
        end = node.start_byte
        last = len(children) - 1
        for index, child in enumerate(children):
            parts.append(self._quoted_text(end, child.start_byte))
            text = _text(child)
            if child.type == "string_content":
                parts.append(_DQUOTED_ESCAPE.sub(_unescape, text))
            elif child.is_named:
                parts.append(self.literal(child, slot))
            elif index in (0, last) and text.startswith('"') if index == 0 else text.endswith('"'):
                inner = text[1:] if index == 0 else text[:-1]
                parts.append(_DQUOTED_ESCAPE.sub(_unescape, inner))
            else:
                self.flag("expansion")  # a lone `$` inside quotes
                parts.append(text)
            end = child.end_byte
        return "".join(parts)

    def _quoted_text(self, start: int, end: int) -> str:
        if start >= end:
            return ""
        return _DQUOTED_ESCAPE.sub(_unescape, self._source[start:end].decode("utf-8"))

    def scan(self, node: Node) -> None:
        """Walk a construct judged as a whole, still collecting the commands inside it."""
        for child in node.named_children:
            kind = child.type
            if kind in _SUBSTITUTIONS or kind in _EXPANSIONS:
                self.literal(child, -1)
            elif kind == "ERROR":
                self.flag("parse_error")
                self.nested(child)
            else:
                self.nested(child)


def has_brace_expansion(skeleton: str) -> bool:
    """`{a,b}` or `{1..3}` in the unquoted parts of a word, nested or not: a `,` or `..` between
    the first `{` and the last `}`. Wider than bash on purpose (`{a{b}c,d}` does expand), and a
    scan rather than a regex so that `{,,,,` repeated stays linear."""
    start, end = skeleton.find("{"), skeleton.rfind("}")
    if start < 0 or end < start:
        return False
    inner = skeleton[start + 1 : end]
    return "," in inner or ".." in inner


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8")


def _unescape(match: re.Match[str]) -> str:
    char = match.group(1)
    return "" if char == "\n" else char


def _unquoted_skeleton(node: Node) -> str:
    """The word with quoted parts blanked, to spot brace expansion (`{a,b}`, `{1..3}`)."""
    if node.type == "word":
        return _text(node)
    if node.type == "concatenation":
        return "".join(_unquoted_skeleton(child) for child in node.children)
    return "x"
