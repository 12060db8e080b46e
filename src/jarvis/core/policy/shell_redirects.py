"""Redirections as bash reads them: which words they add to the command, which files they write,
where the command's input comes from, and what hides in heredocs. The redirection half of the
shell walker (`shell_walk`); it holds no state of its own.

Found by the differential test and handled here: a word after a heredoc delimiter is an argument
(`cat <<E F` runs `cat F`), and backquotes in the body of a heredoc whose delimiter is not
quoted run commands (`cat <<EOF` + "`id`" runs `id`) that tree-sitter-bash does not parse; they
are parsed again here so rules see them, and the line is unsafe.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from jarvis.core.policy import parse_guard
from jarvis.core.policy.shell_layout import ARGUMENT_KINDS, layout_agrees
from jarvis.core.policy.shell_types import StdinSource, UnsafeReason

REDIRECTS = frozenset({"file_redirect", "herestring_redirect", "heredoc_redirect"})
_WRITE_OPS = frozenset({">", ">>", "&>", "&>>", ">|", "<>"})
_DUP_OPS = frozenset({">&", "<&", ">&-", "<&-"})
_CLOSING_OPS = frozenset({">&-", "<&-"})
_BACKQUOTED = re.compile(r"`((?:[^`\\]|\\.)*)`", re.DOTALL)


@dataclass(slots=True)
class Wiring:
    """What the redirections of one command add to it."""

    extra_words: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    stdin: StdinSource = ""

    def merge(self, other: Wiring) -> None:
        self.extra_words.extend(other.extra_words)
        self.writes.extend(other.writes)
        self.stdin = other.stdin or self.stdin


class RedirectReader:
    """Mixed into the walker, which provides the abstract methods below."""

    _source: bytes
    _heredocs: list[tuple[int, int]]

    if TYPE_CHECKING:  # provided by the walker; declared for type checking only

        def flag(self, reason: UnsafeReason) -> None: ...

        def argument(self, node: Node, slot: int) -> str: ...

        def nested(self, node: Node, context: Any = None) -> None: ...

        def inside(self, owner: int) -> Any: ...

        def adopt(self, text: str, start: int, owner: int) -> None:
            """Parse `text` (found at byte `start`) again; add its commands, held by `owner`."""

    def redirect(self, node: Node, slot: int) -> Wiring:
        """Judge one redirect of command `slot`."""
        if node.type == "heredoc_redirect":
            return self._heredoc(node, slot)
        if not layout_agrees(node, self._source, lines=False):
            self.flag("parse_error")
        descriptor = node.child(0)
        if descriptor is not None and descriptor.type == "file_descriptor":
            self._judge_descriptor(_text(descriptor))
        operator = next((child.type for child in node.children if not child.is_named), "")
        targets = [child for child in node.named_children if child.type != "file_descriptor"]
        words = [self.argument(child, slot) for child in targets]
        if operator in _CLOSING_OPS:  # `2>&-h`: the fd is closed, `h` is an argument
            words = ["", *words]
        wiring = Wiring(extra_words=words[1:])
        if node.type == "herestring_redirect":
            wiring.stdin = "herestring"
        else:
            self._judge_file_redirect(operator, words[0] if words else "", wiring)
            if operator == "<" and targets:
                substituted = targets[0].type == "process_substitution"
                wiring.stdin = "process_substitution" if substituted else "file"
        return wiring

    def _judge_descriptor(self, text: str) -> None:
        if not text.isdigit():
            self.flag("parse_error")  # `-l2>f` is the word `-l2` and `>f` to bash

    def _judge_file_redirect(self, operator: str, target: str, wiring: Wiring) -> None:
        if is_network_path(target):
            self.flag("network_redirection")  # bash opens a socket: `cat </dev/tcp/host/80`
        if operator in _WRITE_OPS:
            wiring.writes.append(target)
            if target != "/dev/null":
                self.flag("write_redirection")
        elif operator in _DUP_OPS:
            if operator == ">&" and not (target.isdigit() or target in ("", "-")):
                wiring.writes.append(target)
                self.flag("write_redirection")  # `>& file` writes stdout and stderr to a file
        elif operator != "<":
            self.flag("parse_error")

    def _heredoc(self, node: Node, slot: int) -> Wiring:
        wiring = Wiring(stdin="heredoc")
        expands = True
        for child in node.named_children:
            kind = child.type
            if kind == "heredoc_start":
                raw = _text(child)
                expands = not any(char in raw for char in "'\"\\")
                if not parse_guard.heredoc_delimiter_agrees(raw):
                    self.flag("heredoc_delimiter")
            elif kind == "heredoc_body":
                self._heredocs.append((child.start_byte, child.end_byte))
                self.nested(child, self.inside(slot))
                if expands:
                    self._backquotes(child, slot)
            elif kind in REDIRECTS:
                wiring.merge(self.redirect(child, slot))  # `cat <<EOF > out`
            elif kind in ARGUMENT_KINDS:
                wiring.extra_words.append(self.argument(child, slot))  # `cat <<E F`: F
            elif kind != "heredoc_end":
                self.nested(child)  # `cat <<EOF | sh`: the rest of the line hangs off the heredoc
        if not layout_agrees(node, self._source):
            self.flag("parse_error")
        wiring.stdin = "heredoc"
        return wiring

    def _backquotes(self, body: Node, slot: int) -> None:
        text = _text(body)
        if "`" not in text:
            return
        self.flag("command_substitution")
        if text.count("`") % 2:
            self.flag("parse_error")
        for found in _BACKQUOTED.finditer(text):
            offset = len(text[: found.start()].encode("utf-8"))
            self.adopt(found.group(1), body.start_byte + offset, slot)


def is_network_path(target: str) -> bool:
    """`/dev/tcp/host/port` and `/dev/udp/...`: bash connects instead of opening a file (also
    written `//dev/tcp`, `/dev/./tcp` or `/dev//udp`)."""
    if not target.startswith("/") or "dev" not in target:
        return False
    parts = [part for part in target.split("/") if part not in ("", ".")]
    return len(parts) >= 2 and parts[0] == "dev" and parts[1] in ("tcp", "udp")


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8")
