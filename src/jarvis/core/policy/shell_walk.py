"""The walk over a tree-sitter-bash tree that `analyze_shell` runs: `walk(root, source)`, which
produces the types of `shell_types` (re-exported here). See `shell.py` for
what the fields and reasons mean; this module is how they are found.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from jarvis.core.policy.programs import DYNAMIC_EVAL_COMMANDS
from jarvis.core.policy.shell_layout import layout_agrees, outside_agrees
from jarvis.core.policy.shell_redirects import REDIRECTS, RedirectReader, Wiring
from jarvis.core.policy.shell_types import ShellAnalysis, SimpleCommand, UnsafeReason
from jarvis.core.policy.shell_words import WordReader

_SEQUENCES = frozenset({"program", "list", "pipeline", "subshell", "negated_command"})
_COMPOUND = frozenset(
    {
        "if_statement", "while_statement", "for_statement", "c_style_for_statement",
        "case_statement", "function_definition", "test_command",
    }
)  # fmt: skip
_STATEMENTS = frozenset(
    {
        "command", "redirected_statement", "compound_statement", "declaration_command",
        "unset_command", "variable_assignment", "variable_assignments",
    }
)  # fmt: skip
_WALKED_AS_STATEMENTS = _SEQUENCES | _STATEMENTS | _COMPOUND
_PIPES = frozenset({"|", "|&"})
# Deeper nesting than this is refused: Python's stack is finite and no real command needs it.
_MAX_DEPTH = 40


Reparse = Callable[[str, int], "ShellAnalysis"]


def walk(
    root: Node,
    source: bytes,
    early: tuple[UnsafeReason, ...] = (),
    *,
    reparse: Reparse | None = None,
    depth: int = 0,
) -> ShellAnalysis:
    """Every simple command under `root` and why the line is unsafe (`early`: found before).
    `reparse(text, depth)` analyses a piece tree-sitter left unparsed (heredoc backquotes)."""
    walker = _Walker(source, reparse, depth)
    for reason in early:
        walker.flag(reason)
    if not outside_agrees(root, source):
        walker.flag("parse_error")  # text before or after the tree (a leading `\ ` is dropped)
    walker.sequence(root)
    return walker.result()


@dataclass(frozen=True, slots=True)
class _Context:
    """How the statement being walked is wired: inherited by everything inside it."""

    stdin_pipe: bool = False
    piped: bool = False
    background: bool = False
    function: str = ""
    owner: int = -1


class _Walker(RedirectReader, WordReader):
    """One pass over the tree: collects simple commands and unsafe reasons."""

    def __init__(self, source: bytes, reparse: Reparse | None, depth: int) -> None:
        self._source = source
        self._reparse = reparse
        self._slots: list[tuple[int, SimpleCommand | None]] = []  # (start byte, command)
        self._reasons: dict[UnsafeReason, None] = {}
        self._context = _Context()
        self._depth = depth
        self._heredocs: list[tuple[int, int]] = []

    def flag(self, reason: UnsafeReason) -> None:
        self._reasons.setdefault(reason)

    def result(self) -> ShellAnalysis:
        order = sorted(
            (i for i, (_, cmd) in enumerate(self._slots) if cmd is not None),
            key=lambda i: self._slots[i][0],
        )
        position = {slot: index for index, slot in enumerate(order)}
        commands: list[SimpleCommand] = []
        for slot in order:
            command = self._slots[slot][1]
            assert command is not None
            if command.owner >= 0:
                command = dataclasses.replace(command, owner=position.get(command.owner, -1))
            commands.append(command)
        if not commands:
            self.flag("empty")
        return ShellAnalysis(tuple(commands), tuple(self._reasons), tuple(self._heredocs))

    # statements

    def sequence(self, root: Node) -> None:
        """Lists, pipelines and groups, walked with a stack: `a && b && ...` nests to the left
        as deep as the chain is long, deeper than Python's recursion allows."""
        stack: list[tuple[Node, _Context]] = [(root, self._context)]
        while stack:
            node, context = stack.pop()
            kind = node.type
            if kind in _SEQUENCES or (kind == "compound_statement" and _opens_group(node)):
                if not layout_agrees(node, self._source):
                    self.flag("parse_error")
                stack.extend(reversed(_wired_children(node, context)))
                continue
            saved, self._context = self._context, context
            try:
                self._statement(node)
            finally:
                self._context = saved

    def _statement(self, node: Node) -> None:
        kind = node.type
        if kind == "command":
            self._command(node, Wiring(), self._reserve(node))
        elif kind == "redirected_statement":
            self._redirected(node)
        elif kind in ("declaration_command", "unset_command"):
            self._declaration(node)
        elif kind in ("variable_assignment", "variable_assignments"):
            self._bare_assignment(node)
        elif kind in REDIRECTS:
            slot = self._reserve(node)
            self._fill(slot, self.redirect(node, slot).extra_words, 0, Wiring())
        elif kind == "comment":
            return
        elif kind == "function_definition":
            self.flag("compound")
            name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
            if body is not None:
                inner = dataclasses.replace(self._context, function=_text(name) if name else "")
                self.nested(body, inner)
        else:
            self.flag(
                "compound" if kind in _COMPOUND or kind == "compound_statement" else "parse_error"
            )
            self.scan(node)

    def nested(self, node: Node, context: _Context | None = None) -> None:
        """Walk a construct inside another one (a substitution, a body), bounded in depth."""
        if self._depth >= _MAX_DEPTH:
            self.flag("too_deep")
            return
        saved = self._context
        self._depth += 1
        self._context = context or saved
        try:
            if node.type in _WALKED_AS_STATEMENTS:
                self.sequence(node)
            else:
                self.scan(node)
        finally:
            self._depth -= 1
            self._context = saved

    def inside(self, owner: int) -> _Context:
        """The context of a substitution in a word of command `owner`: not piped, its own."""
        context = self._context
        return _Context(background=context.background, function=context.function, owner=owner)

    def adopt(self, text: str, start: int, owner: int) -> None:
        if self._reparse is None or self._depth >= _MAX_DEPTH:
            self.flag("too_deep")
            return
        found = self._reparse(text, self._depth + 1)
        for reason in found.unsafe:
            self.flag(reason)
        context = self._context
        for command in found.commands:
            adopted = dataclasses.replace(
                command, owner=owner, function=context.function, background=context.background
            )
            self._slots.append((start, adopted))

    def walk_substitution(self, node: Node, slot: int) -> None:
        for child in node.named_children:
            self.nested(child, self.inside(slot))

    def _reserve(self, node: Node) -> int:
        self._slots.append((node.start_byte, None))
        return len(self._slots) - 1

    def _command(self, node: Node, wiring: Wiring, slot: int) -> None:
        plain = self.plain_words(node)
        if plain is not None:
            self._fill(slot, [*plain, *wiring.extra_words], 0, wiring)
            return
        if not layout_agrees(node, self._source, lines=False):
            self.flag("parse_error")  # a byte bash reads that tree-sitter skipped, or a split word
        words: list[str] = []
        assignments = 0
        for child in node.children:
            kind = child.type
            if not child.is_named:
                self.flag("parse_error")  # e.g. a lone `$` or `$"..."`
            elif kind == "variable_assignment" and len(words) == assignments:
                self.flag("assignment")
                words.append(self.assignment_word(child, slot))
                assignments += 1
            elif kind in REDIRECTS:
                own = self.redirect(child, slot)
                words.extend(own.extra_words)
                wiring.writes.extend(own.writes)
                wiring.stdin = own.stdin or wiring.stdin
            elif kind == "command_name":  # braces expand here too: `curl{a,b}` runs curla
                words.append("".join(self.argument(part, slot) for part in child.children))
            else:
                words.append(self.argument(child, slot))
        self._fill(slot, [*words, *wiring.extra_words], assignments, wiring)

    def _redirected(self, node: Node) -> None:
        body = node.child_by_field_name("body")
        slot = self._reserve(body if body is not None else node)
        if not layout_agrees(node, self._source, lines=False):
            self.flag("parse_error")
        wiring = Wiring()
        for child in node.children:
            if body is not None and child.id == body.id:
                continue
            if child.type in REDIRECTS:
                wiring.merge(self.redirect(child, slot))
            elif child.is_named:
                self.nested(child)
        if body is None:
            self._fill(slot, wiring.extra_words, 0, wiring)
        elif body.type == "command":
            self._command(body, wiring, slot)
        else:
            if wiring.extra_words:
                self.flag("parse_error")  # words after a redirect of a compound body
            self.nested(body)

    def _declaration(self, node: Node) -> None:
        slot = self._reserve(node)
        keyword = node.children[0]
        words = [_text(keyword)]
        for child in node.children[1:]:
            if child.type == "variable_assignment":
                words.append(self.assignment_word(child, slot))
            elif child.type == "variable_name":
                words.append(_text(child))
            else:
                words.append(self.argument(child, slot))
        self._fill(slot, words, 0, Wiring())

    def _bare_assignment(self, node: Node) -> None:
        self.flag("assignment")
        slot = self._reserve(node)
        parts = node.named_children if node.type == "variable_assignments" else [node]
        words = [self.assignment_word(part, slot) for part in parts]
        self._fill(slot, words, len(words), Wiring())

    def _fill(self, slot: int, words: list[str], assignments: int, wiring: Wiring) -> None:
        if not words:
            return
        argv = words[assignments:]
        if argv and is_dynamic_eval(argv):
            self.flag("dynamic_eval")
        context = self._context
        command = SimpleCommand(
            tuple(words),
            assignments,
            # an explicit `<` wins over the pipe, as in bash
            stdin=wiring.stdin or ("pipe" if context.stdin_pipe else ""),
            writes=tuple(wiring.writes),
            piped=context.piped,
            background=context.background,
            function=context.function,
            owner=context.owner,
        )
        self._slots[slot] = (self._slots[slot][0], command)


def _wired_children(node: Node, context: _Context) -> list[tuple[Node, _Context]]:
    """The named children of a list, pipeline or group, each with how bash wires it."""
    children = node.children
    wired: list[tuple[Node, _Context]] = []
    pipe_before = False
    pipeline = node.type == "pipeline"
    for index, child in enumerate(children):
        if not child.is_named:
            pipe_before = pipe_before or child.type in _PIPES
            continue
        following = children[index + 1].type if index + 1 < len(children) else ""
        own = context
        if pipeline:
            own = dataclasses.replace(
                own,
                stdin_pipe=own.stdin_pipe or pipe_before,
                piped=own.piped or following in _PIPES,
            )
        if following == "&":
            own = dataclasses.replace(own, background=True)
        wired.append((child, own))
    return wired


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8")


def _opens_group(node: Node) -> bool:
    """`{ ..; }` is a plain group; `(( .. ))` (also a compound_statement) is arithmetic."""
    return bool(node.children) and node.children[0].type == "{"


def is_dynamic_eval(argv: list[str]) -> bool:
    if argv[0] in DYNAMIC_EVAL_COMMANDS:
        return True
    return argv[0] in ("builtin", "command") and len(argv) > 1 and argv[1] in DYNAMIC_EVAL_COMMANDS
