"""The tokenizer fast path reads plain lines exactly as the tree-sitter walk does."""

from __future__ import annotations

import pytest

from jarvis.core.policy.shell import _tree_analysis
from jarvis.core.policy.shell_plain import plain_analysis

PLAIN = [
    "git status",
    "git status --short && git diff --stat | head -n 20; ls -la src",
    "a | b | c",
    "a && b & c",
    "a & b",
    "a || b && c | d",
    "a;b;c",
    "a\nb\n\nc\n",
    "a &&\n b",
    "a |\n b",
    "make -j4 test PYTHON=python3.12 V=1",
    "eval x",
    ". x",
    "exec ls",
    "builtin eval x",
    "ls -la & ",
    "cmd x:y,z@w+v%u^t=s",
]

NOT_PLAIN = [
    "", "   ", "a && && b", "; a", "a ;; b", "a &&", "a |", "a ||", "a |& b", "if true; then a; fi",
    "time a", "a=b c", "%1", "echo $x", "echo a#b", "echo ~", "echo *", "a > b",
    "{ a; }", "! a", "a\rb", "echo é",
]  # fmt: skip


@pytest.mark.parametrize("line", PLAIN)
def test_plain_lines_read_as_the_tree_walk_reads_them(line: str) -> None:
    fast = plain_analysis(line)
    slow = _tree_analysis(line, line.encode())
    assert fast is not None
    assert fast.commands == slow.commands
    assert fast.unsafe == slow.unsafe


@pytest.mark.parametrize("line", NOT_PLAIN)
def test_everything_else_goes_to_tree_sitter(line: str) -> None:
    assert plain_analysis(line) is None


QUOTED = [
    'git commit -m "fix: a b"',
    "grep -n 'a b|c' src",
    "echo a\"b\"'c' d",
    "echo 'a\nb' \"c\nd\"",
    "echo '' \"\" x",
    "printf '%s\\n' 'it''s'",
    "echo 'a\"b' \"c'd\"",
    "git log --format='%H %s' -n 3 && git status",
    "'git' status",
]


@pytest.mark.parametrize("line", QUOTED)
def test_quoted_parts_that_cannot_expand_read_as_the_tree_walk_reads_them(line: str) -> None:
    fast = plain_analysis(line)
    slow = _tree_analysis(line, line.encode())
    assert fast is not None and slow.safe
    assert fast.commands == slow.commands


@pytest.mark.parametrize(
    "line",
    ['echo "$x"', 'echo "a\\b"', 'echo "`id`"', "'if' x", 'x="a b" cmd', "echo 'a\rb'"],
)
def test_quotes_that_expand_or_hide_go_to_tree_sitter(line: str) -> None:
    assert plain_analysis(line) is None
