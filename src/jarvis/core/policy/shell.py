"""Shell lines parsed with tree-sitter-bash, so rules judge commands, never raw strings.

API:
- `analyze_shell(command) -> ShellAnalysis` (cached): every simple command anywhere in the line,
  in source order, including those inside `$(..)`, backticks, `<(..)`, heredocs and compound
  statements (so deny rules see them), plus `unsafe` reasons why allow rules may never
  auto-approve the line.
- `SimpleCommand.words` is the argv with quotes removed (`'a b'` -> `a b`, `st"atus"` -> `status`);
  leading `VAR=value` words are kept (`assignments` counts them) so they never match a plain rule.
  The command name is kept exactly as written: no tilde expansion, no path normalising.
  `argv` drops the assignments; `text()` re-quotes the words with `shlex.join`.
- `WRAPPER_COMMANDS`, `INLINE_CODE_COMMANDS`, `DYNAMIC_EVAL_COMMANDS`: command names that run
  other commands or code; deny matching looks through them, suggestions refuse them.

Unsafe reasons (fail closed, like Codex): `parse_error` (ERROR/MISSING nodes or any construct not
understood here), `command_substitution`, `process_substitution`, `write_redirection` (a write to
anything but `/dev/null`; fd duplication and input redirection are fine), `expansion` (`$VAR`,
`${..}`, `$((..))`, `$'..'`, brace expansion), `dynamic_eval` (`eval`, `source`, `.`, `exec`),
`compound` (if/for/while/case/functions/tests), `assignment` (a `VAR=value` prefix or a bare
assignment) and `empty`. A NUL byte, or a backslash-newline inside a word (bash joins
`r\\<newline>m` into `rm`, tree-sitter does not), is a `parse_error` too.
"""

from __future__ import annotations

import functools
import re
import shlex
import threading
from dataclasses import dataclass
from typing import Literal

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

UnsafeReason = Literal[
    "parse_error",
    "command_substitution",
    "process_substitution",
    "write_redirection",
    "expansion",
    "dynamic_eval",
    "compound",
    "assignment",
    "empty",
]

DYNAMIC_EVAL_COMMANDS = frozenset({"eval", "source", ".", "exec"})
# Commands that run another command given in their arguments.
WRAPPER_COMMANDS = frozenset(
    {
        "builtin", "chroot", "command", "coproc", "doas", "env", "exec", "find", "flock", "ionice",
        "nice", "nohup", "setsid", "stdbuf", "strace", "sudo", "time", "timeout", "unbuffer",
        "watch", "xargs",
    }
)  # fmt: skip
# Shells and interpreters whose flags (`-c`, `-e`, `-m`) run code given inline.
INLINE_CODE_COMMANDS = frozenset(
    {
        "ash", "bash", "bun", "dash", "deno", "fish", "ksh", "node", "perl", "php", "pwsh",
        "python", "python3", "ruby", "sh", "zsh",
    }
)  # fmt: skip

_TRANSPARENT = frozenset({"program", "list", "pipeline", "subshell", "negated_command"})
_COMPOUND = frozenset(
    {
        "if_statement", "while_statement", "for_statement", "c_style_for_statement",
        "case_statement", "function_definition", "test_command",
    }
)  # fmt: skip
_EXPANSIONS = frozenset(
    {"simple_expansion", "expansion", "arithmetic_expansion", "brace_expression", "ansi_c_string"}
)
_SUBSTITUTIONS: dict[str, UnsafeReason] = {
    "command_substitution": "command_substitution",
    "process_substitution": "process_substitution",
}
_WRITE_OPS = frozenset({">", ">>", "&>", "&>>", ">|", "<>"})
_DUP_OPS = frozenset({">&", "<&", ">&-", "<&-"})
_REDIRECTS = frozenset({"file_redirect", "herestring_redirect", "heredoc_redirect"})
_BRACE_EXPANSION = re.compile(r"\{[^{}]*(?:,|\.\.)[^{}]*\}")
_UNQUOTED_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_DQUOTED_ESCAPE = re.compile(r"\\([$`\"\\\n])")
# bash joins `r\<newline>m` into one word `rm`; tree-sitter splits it in two
_WORD_CONTINUATION = re.compile(r"\S\\\n")

_PARSER = Parser(Language(tree_sitter_bash.language()))
_PARSER_LOCK = threading.Lock()  # a tree-sitter Parser is not safe to share across threads


@dataclass(frozen=True, slots=True)
class SimpleCommand:
    words: tuple[str, ...]
    assignments: int = 0  # how many leading words are `VAR=value`

    @property
    def argv(self) -> tuple[str, ...]:
        """The words after leading assignments: what actually runs."""
        return self.words[self.assignments :]

    def text(self) -> str:
        """The words re-quoted (`shlex.join`): what regexes and humans should read."""
        return shlex.join(self.words)


@dataclass(frozen=True, slots=True)
class ShellAnalysis:
    commands: tuple[SimpleCommand, ...]
    unsafe: tuple[UnsafeReason, ...]

    @property
    def safe(self) -> bool:
        return not self.unsafe


@functools.lru_cache(maxsize=4096)
def analyze_shell(command: str) -> ShellAnalysis:
    """Parse one shell line (may hold many commands); pure and cached."""
    try:
        source = command.encode("utf-8")
    except UnicodeEncodeError:
        return ShellAnalysis((), ("parse_error",))
    if b"\0" in source:
        return ShellAnalysis((), ("parse_error",))  # tree-sitter stops reading at NUL
    with _PARSER_LOCK:
        root = _PARSER.parse(source).root_node
    walker = _Walker()
    if root.has_error or _WORD_CONTINUATION.search(command):
        walker.flag("parse_error")
    walker.statement(root)
    return walker.result()


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8")


class _Walker:
    """One pass over the tree: collects simple commands and unsafe reasons."""

    def __init__(self) -> None:
        self._found: list[tuple[int, SimpleCommand]] = []
        self._reasons: dict[UnsafeReason, None] = {}

    def flag(self, reason: UnsafeReason) -> None:
        self._reasons.setdefault(reason)

    def result(self) -> ShellAnalysis:
        commands = tuple(cmd for _, cmd in sorted(self._found, key=lambda item: item[0]))
        if not commands:
            self.flag("empty")
        return ShellAnalysis(commands, tuple(self._reasons))

    # statements

    def statement(self, node: Node) -> None:
        kind = node.type
        if kind in _TRANSPARENT or (kind == "compound_statement" and _opens_group(node)):
            for child in node.named_children:
                self.statement(child)
        elif kind == "command":
            self._command(node, [])
        elif kind == "redirected_statement":
            self._redirected(node)
        elif kind in ("declaration_command", "unset_command"):
            self._declaration(node)
        elif kind in ("variable_assignment", "variable_assignments"):
            self._bare_assignment(node)
        elif kind in _REDIRECTS:
            self._record(node, self._redirect(node), 0)
        elif kind == "comment":
            return
        else:
            self.flag(
                "compound" if kind in _COMPOUND or kind == "compound_statement" else "parse_error"
            )
            self._scan(node)

    def _command(self, node: Node, trailing: list[str]) -> None:
        words: list[str] = []
        assignments = 0
        for child in node.children:
            kind = child.type
            if not child.is_named:
                self.flag("parse_error")  # e.g. a lone `$` or `$"..."`
            elif kind == "variable_assignment" and len(words) == assignments:
                self.flag("assignment")
                words.append(self._assignment_word(child))
                assignments += 1
            elif kind in _REDIRECTS:
                words.extend(self._redirect(child))
            elif kind == "command_name":
                words.append("".join(self._literal(part) for part in child.children))
            else:
                words.append(self._argument(child))
        self._record(node, [*words, *trailing], assignments)

    def _redirected(self, node: Node) -> None:
        body = node.child_by_field_name("body")
        trailing: list[str] = []
        for child in node.children:
            if body is not None and child.id == body.id:
                continue
            if child.type in _REDIRECTS:
                trailing.extend(self._redirect(child))
            elif child.is_named:
                self.statement(child)
        if body is None:
            self._record(node, trailing, 0)
        elif body.type == "command":
            self._command(body, trailing)
        else:
            if trailing:
                self.flag("parse_error")  # words after a redirect of a compound body
            self.statement(body)

    def _declaration(self, node: Node) -> None:
        keyword = node.children[0]
        words = [_text(keyword)]
        for child in node.children[1:]:
            if child.type == "variable_assignment":
                words.append(self._assignment_word(child))
            elif child.type == "variable_name":
                words.append(_text(child))
            else:
                words.append(self._argument(child))
        self._record(node, words, 0)

    def _bare_assignment(self, node: Node) -> None:
        self.flag("assignment")
        parts = node.named_children if node.type == "variable_assignments" else [node]
        words = [self._assignment_word(part) for part in parts]
        self._record(node, words, len(words))

    def _record(self, node: Node, words: list[str], assignments: int) -> None:
        if not words:
            return
        argv = words[assignments:]
        if argv and _is_dynamic_eval(argv):
            self.flag("dynamic_eval")
        self._found.append((node.start_byte, SimpleCommand(tuple(words), assignments)))

    # redirections

    def _redirect(self, node: Node) -> list[str]:
        """Judge one redirect; returns words that bash treats as extra arguments."""
        if node.type == "heredoc_redirect":
            self._heredoc(node)
            return []
        operator = next((child.type for child in node.children if not child.is_named), "")
        targets = [
            self._argument(child)
            for child in node.named_children
            if child.type != "file_descriptor"
        ]
        if node.type == "file_redirect":
            self._judge_file_redirect(operator, targets[0] if targets else "")
        return targets[1:]

    def _judge_file_redirect(self, operator: str, target: str) -> None:
        if operator in _WRITE_OPS:
            if target != "/dev/null":
                self.flag("write_redirection")
        elif operator in _DUP_OPS:
            if operator == ">&" and not (target.isdigit() or target in ("", "-")):
                self.flag("write_redirection")  # `>& file` writes stdout and stderr to a file
        elif operator != "<":
            self.flag("parse_error")

    def _heredoc(self, node: Node) -> None:
        for child in node.named_children:
            kind = child.type
            if kind == "heredoc_body":
                self._scan(child)
            elif kind == "file_redirect":
                if self._redirect(child):
                    self.flag("parse_error")
            elif kind not in ("heredoc_start", "heredoc_end"):
                self.statement(child)  # `cat <<EOF | sh`: the pipeline hangs off the heredoc

    # words

    def _argument(self, node: Node) -> str:
        literal = self._literal(node)
        if "{" in literal and _BRACE_EXPANSION.search(_unquoted_skeleton(node)):
            self.flag("expansion")
        return literal

    def _assignment_word(self, node: Node) -> str:
        parts: list[str] = []
        for child in node.children:
            if child.type in ("variable_name", "subscript", "=", "+="):
                self._scan(child)
                parts.append(_text(child))
            else:
                parts.append(self._literal(child))
        return "".join(parts)

    def _literal(self, node: Node) -> str:
        kind = node.type
        if kind == "word":
            return _UNQUOTED_ESCAPE.sub(_unescape, _text(node))
        if kind == "number":
            return _text(node)
        if kind == "raw_string":
            return _text(node)[1:-1]
        if kind == "string":
            return self._double_quoted(node)
        if kind == "concatenation":
            return "".join(self._literal(child) for child in node.children)
        if kind in _SUBSTITUTIONS:
            self.flag(
                "command_substitution" if kind == "command_substitution" else "process_substitution"
            )
            for child in node.named_children:
                self.statement(child)
        elif kind in _EXPANSIONS:
            self.flag("expansion")
            self._scan(node)
        else:
            self.flag("parse_error")
            self._scan(node)
        return _text(node)

    def _double_quoted(self, node: Node) -> str:
        parts: list[str] = []
        for child in node.children[1:-1]:
            if child.type == "string_content":
                parts.append(_DQUOTED_ESCAPE.sub(_unescape, _text(child)))
            elif child.is_named:
                parts.append(self._literal(child))
            else:
                self.flag("expansion")  # a lone `$` inside quotes
                parts.append(_text(child))
        return "".join(parts)

    def _scan(self, node: Node) -> None:
        """Walk a construct judged as a whole, still collecting the commands inside it."""
        for child in node.named_children:
            kind = child.type
            if kind in _SUBSTITUTIONS or kind in _EXPANSIONS:
                self._literal(child)
            elif kind == "ERROR":
                self.flag("parse_error")
                self._scan(child)
            elif kind in _TRANSPARENT or kind in _COMPOUND or kind in _STATEMENTS:
                self.statement(child)
            else:
                self._scan(child)


_STATEMENTS = frozenset(
    {
        "command", "redirected_statement", "compound_statement", "declaration_command",
        "unset_command", "variable_assignment", "variable_assignments",
    }
)  # fmt: skip


def _opens_group(node: Node) -> bool:
    """`{ ..; }` is a plain group; `(( .. ))` (also a compound_statement) is arithmetic."""
    return bool(node.children) and node.children[0].type == "{"


def _is_dynamic_eval(argv: list[str]) -> bool:
    if argv[0] in DYNAMIC_EVAL_COMMANDS:
        return True
    return argv[0] in ("builtin", "command") and len(argv) > 1 and argv[1] in DYNAMIC_EVAL_COMMANDS


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
