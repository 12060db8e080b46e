"""What `analyze_shell` sees in a line: the simple commands and why it may be unsafe."""

from __future__ import annotations

import pytest

from jarvis.core.policy.shell import analyze_shell


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("git status --short", [("git", "status", "--short")]),
        ("git 'a b' \"c\" d\\ e", [("git", "a b", "c", "d e")]),
        ('git st"atus" "a\\"b" "\\x"', [("git", "status", 'a"b', "\\x")]),
        ("./git status", [("./git", "status")]),
        ("~/bin/git status", [("~/bin/git", "status")]),
        ("FOO=1 git status", [("FOO=1", "git", "status")]),
        ("a && b || c; d | e & f", [("a",), ("b",), ("c",), ("d",), ("e",), ("f",)]),
        ("a\nb", [("a",), ("b",)]),
        ("(a; b) | { c; }", [("a",), ("b",), ("c",)]),
        ("echo $(rm -rf x)", [("echo", "$(rm -rf x)"), ("rm", "-rf", "x")]),
        ("echo `id`", [("echo", "`id`"), ("id",)]),
        ("diff <(cat a) b", [("diff", "<(cat a)", "b"), ("cat", "a")]),
        ('echo "x $(id) y"', [("echo", "x $(id) y"), ("id",)]),
        ("cat <<EOF | sh\n$(id)\nEOF\n", [("cat",), ("sh",), ("id",)]),
        ("cat <<EOF && rm x\nhi\nEOF\n", [("cat",), ("rm", "x")]),
        ("if true; then rm x; fi", [("true",), ("rm", "x")]),
        ("f() { rm x; }; f", [("rm", "x"), ("f",)]),
        ("git < in status", [("git", "status")]),  # a word after a redirect is an argument
        ("git status # rm -rf ~", [("git", "status")]),
        ("git \\\n  status", [("git", "status")]),
        ("export A=1 B", [("export", "A=1", "B")]),
        ("A=1 B=2", [("A=1", "B=2")]),
        ("! git status", [("git", "status")]),
    ],
)
def test_words(command: str, words: list[tuple[str, ...]]) -> None:
    assert [c.words for c in analyze_shell(command).commands] == words


@pytest.mark.parametrize(
    ("command", "unsafe"),
    [
        ("git status", ()),
        ("git status 2>&1 | grep x", ()),
        ("git status > /dev/null 2>&1", ()),
        ("git status &> /dev/null", ()),
        ("git status 2>&-", ()),
        ("cat < in.txt", ()),
        ("cat <<'EOF'\n$(id) $HOME\nEOF\n", ()),  # a quoted heredoc is literal
        ("find . -name '*.py' -exec grep x {} +", ()),
        ("git status > x", ("write_redirection",)),
        ("git status >> x", ("write_redirection",)),
        ("git status >| x", ("write_redirection",)),
        ("git status &> x", ("write_redirection",)),
        ("git status >& x", ("write_redirection",)),
        ("git status <> x", ("parse_error",)),
        ("echo $(id)", ("command_substitution",)),
        ("echo `id`", ("command_substitution",)),
        ('echo "$(id)"', ("command_substitution",)),
        ("cat <<EOF\n$(id)\nEOF\n", ("command_substitution",)),
        ("cat <(ls)", ("process_substitution",)),
        ("echo $HOME", ("expansion",)),
        ("echo ${HOME}", ("expansion",)),
        ('echo "$HOME"', ("expansion",)),
        ("echo $((1 + 2))", ("expansion",)),
        ("echo $'a\\nb'", ("expansion",)),
        ("echo {1..3}", ("expansion",)),
        ("echo a{b,c}", ("expansion",)),
        ("cat <<EOF\n$HOME\nEOF\n", ("expansion",)),
        ("eval git status", ("dynamic_eval",)),
        ("source x", ("dynamic_eval",)),
        (". x", ("dynamic_eval",)),
        ("exec git status", ("dynamic_eval",)),
        ("command eval x", ("dynamic_eval",)),
        ("FOO=1 git status", ("assignment",)),
        ("FOO=1", ("assignment",)),
        ("if true; then git status; fi", ("compound",)),
        ("for f in a; do rm $f; done", ("compound", "expansion")),
        ("while true; do x; done", ("compound",)),
        ("[[ -f x ]] && rm x", ("compound",)),
        ('git status "unterminated', ("parse_error",)),
        ("git status )", ("parse_error",)),
        ("r\\\nm -rf x", ("parse_error",)),
        ("git status \\\n  --short", ()),
        ("git status\0; rm x", ("parse_error",)),
        ("", ("empty",)),
        ("   ", ("empty",)),
        ("# only a comment", ("empty",)),
    ],
)
def test_unsafe_reasons(command: str, unsafe: tuple[str, ...]) -> None:
    assert analyze_shell(command).unsafe == unsafe


def test_analysis_is_cached() -> None:
    assert analyze_shell("git log -1") is analyze_shell("git log -1")


def test_lone_surrogate_is_a_parse_error() -> None:
    assert analyze_shell("echo \ud800").unsafe == ("parse_error",)
