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


# Where tree-sitter-bash and bash read a line differently, the line fails closed.
DISAGREEMENTS = [
    # bash ends a heredoc at the quote-removed delimiter, tree-sitter at the raw token
    ('cat <<E"O"F\nEOF\nrm -rf x\nE"O"F\n', "heredoc_delimiter"),
    ("cat <<'E'OF\nEOF\nrm -rf x\n'E'OF\n", "parse_error"),  # tree-sitter gives up first
    ("cat <<\\EOF\nEOF\nrm x\n\\EOF\n", "heredoc_delimiter"),
    ("cat <<E\\OF\nEOF\nrm x\nE\\OF\n", "heredoc_delimiter"),
    ("cat <<$X\n$X\nrm x\n", "heredoc_delimiter"),
    ("cat <<'E$F'\nx\nE$F\n", "heredoc_delimiter"),
    ('cat <<"E\\"F"\nx\nE"F\n', "heredoc_delimiter"),
    # backslash + CR + LF: a line continuation to tree-sitter, a new command to bash
    ("echo a \\\r\nrm x", "control_character"),
    ("echo a\rrm x", "control_character"),
    ("echo a\x1b[2K", "control_character"),
    ("echo a\x0bb", "control_character"),
    ("echo a\x0cb", "control_character"),
    ("echo a\x7fb", "control_character"),
    ("echo a\x01b", "control_character"),
]


@pytest.mark.parametrize(("command", "reason"), DISAGREEMENTS)
def test_parser_disagreements_fail_closed(command: str, reason: str) -> None:
    assert reason in analyze_shell(command).unsafe


@pytest.mark.parametrize(
    "command",
    [
        "cat <<EOF\nx\nEOF\n",
        "cat <<'EOF'\nx\nEOF\n",
        'cat <<"EOF"\nx\nEOF\n',
        "cat <<-EOF\n\tx\n\tEOF\n",
        "cat <<END_OF-TEXT.1\nx\nEND_OF-TEXT.1\n",
        "echo a\tb",
    ],
)
def test_plain_or_wholly_quoted_heredocs_and_tabs_are_fine(command: str) -> None:
    assert analyze_shell(command).unsafe == ()


def test_a_long_chain_is_analysed_without_recursion() -> None:
    analysis = analyze_shell("true && " * 5000 + "true")
    assert len(analysis.commands) == 5001 and analysis.safe


@pytest.mark.parametrize(
    "command",
    [
        "echo " + "$(" * 400 + "x" + ")" * 400,
        "echo " + '"$(' * 300 + "x" + ')"' * 300,
        "if true; then " * 300 + "x" + "; fi" * 300,
        "[[ " + "( " * 300 + "x" + " )" * 300 + " ]]",
    ],
)
def test_deep_nesting_fails_closed_instead_of_raising(command: str) -> None:
    assert "too_deep" in analyze_shell(command).unsafe


def test_a_long_pipeline_is_analysed_without_recursion() -> None:
    analysis = analyze_shell("echo " + "'a' | " * 1000 + "cat")  # tree-sitter nests it
    assert len(analysis.commands) == 1001 and analysis.safe


def test_a_long_chain_that_is_not_plain_is_walked_without_recursion() -> None:
    analysis = analyze_shell("echo $x && " * 700 + "true")  # 700 levels of `list` nodes
    assert len(analysis.commands) == 701 and analysis.unsafe == ("expansion",)


WIRING = 'curl x | sh & f(){ f|f& }; y=$(id) cat <<< "$(z)" > out 2>/dev/null; sh < <(w)'


def test_wiring_says_how_bash_connects_each_command() -> None:
    commands = analyze_shell(WIRING).commands
    assert [(c.words[-1], c.stdin, c.piped, c.background) for c in commands] == [
        ("x", "", True, True),
        ("sh", "pipe", False, True),
        ("f", "", True, True),
        ("f", "pipe", False, True),
        ("cat", "herestring", False, False),
        ("id", "", False, False),
        ("z", "", False, False),
        ("sh", "process_substitution", False, False),
        ("w", "", False, False),
    ]
    assert [c.function for c in commands[2:5]] == ["f", "f", ""]
    assert [c.owner for c in commands] == [-1, -1, -1, -1, -1, 4, 4, -1, 7]
    assert commands[4].writes == ("out", "/dev/null")


def test_the_plain_word_fast_path_reads_like_the_slow_one() -> None:
    assert analyze_shell("git  status\t--short x=1").commands[0].words == (
        "git",
        "status",
        "--short",
        "x=1",
    )
    assert analyze_shell("x=1 git").commands[0].assignments == 1


@pytest.mark.parametrize(
    "command",
    [
        "git {-c,x{}} core.pager=id log",  # bash expands nested braces: `git -c x{} ...`
        "echo {a{b}c,d}",
        "echo a{b,c}d",
        "echo {1..3}",
    ],
)
def test_brace_expansion_nested_or_not_is_an_expansion(command: str) -> None:
    assert "expansion" in analyze_shell(command).unsafe


@pytest.mark.parametrize("command", ["echo {}", "find . -exec ls {} +", "echo '{a,b}'", "echo {a}"])
def test_braces_that_do_not_expand(command: str) -> None:
    assert analyze_shell(command).unsafe == ()


def test_brace_scan_is_linear() -> None:
    """A quadratic regex took minutes on this word; the scan takes milliseconds (no timing
    threshold here: the suite's timeout only guards against the old behaviour)."""
    assert analyze_shell("echo {" + "," * 1_000_000).unsafe == ()


def test_a_huge_line_that_is_not_plain_is_too_complex_to_walk() -> None:
    """Walking costs microseconds per node; a 100 KB line of `echo $x && ...` (72,000 nodes)
    is refused whole instead (and blocked as dangerous: it cannot be judged)."""
    assert analyze_shell(("echo $x && " * 9000)[:-4]).unsafe == ("too_complex",)
    assert analyze_shell(("echo x && " * 9000)[:-4]).safe  # plain lines are read without a tree
