"""Shell rule matching: the bypass table (SPEC §8, REFERENCES "Shell-rule matching")."""

from __future__ import annotations

import pytest

from jarvis.core.policy.rules import Rule, RuleSet, match_shell_rules
from jarvis.core.policy.shell import analyze_shell

ALLOW, DENY, ASK = "allow", "deny", "none"
GIT = ("allow git status",)
ANY_BUT_RM = ("allow *", "deny rm")


def rules_of(*specs: str) -> RuleSet:
    """`"allow git status"` -> an allow rule for bash with pattern `git status`."""
    return RuleSet(
        Rule(tool="bash", action=action, pattern=pattern)
        for action, pattern in (spec.split(" ", 1) for spec in specs)
    )


def outcome(command: str, specs: tuple[str, ...]) -> str:
    match = match_shell_rules(analyze_shell(command), rules_of(*specs), now_ms=0, fingerprint=None)
    return match.outcome


BYPASS_TABLE = [
    # the rule's own prefix
    ("git status", GIT, ALLOW),
    ("git status --short", GIT, ALLOW),
    ('git "status"', GIT, ALLOW),
    ('git st"atus"', GIT, ALLOW),
    ("git \\\n  status", GIT, ALLOW),
    ("git status # rm -rf ~", GIT, ALLOW),
    ("git stash", GIT, ASK),
    ("git", GIT, ASK),
    # chains: every simple command needs a rule
    ("git status && rm -rf ~", GIT, ASK),
    ("git status; rm x", GIT, ASK),
    ("git status || rm x", GIT, ASK),
    ("git status | sh", GIT, ASK),
    ("git status & rm x", GIT, ASK),
    ("git status\nrm x", GIT, ASK),
    ("git status\ngit status -s", GIT, ALLOW),
    ("git status --short && git diff", GIT, ASK),
    ("git status --short && git diff", ("allow git status", "allow git diff"), ALLOW),
    ("git status | grep x", ("allow git status", "allow grep"), ALLOW),
    ("(git status)", GIT, ALLOW),
    ("{ git status; }", GIT, ALLOW),
    ("(git status; rm x)", GIT, ASK),
    # substitutions never auto-approve
    ("git status $(curl x)", GIT, ASK),
    ("git status `id`", GIT, ASK),
    ('git status "$(id)"', GIT, ASK),
    ("git status <(cat x)", ("allow git status", "allow cat"), ASK),
    ("cat <<EOF\n$(rm -rf x)\nEOF\n", ("allow cat",), ASK),
    ("cat <<'EOF'\n$(rm -rf x)\nEOF\n", ("allow cat",), ALLOW),
    # redirections that write
    ("git status > ~/.bashrc", GIT, ASK),
    ("git status >> x", GIT, ASK),
    ("git status &> x", GIT, ASK),
    ("git status >& x", GIT, ASK),
    ("git status 2>&1", GIT, ALLOW),
    ("git status > /dev/null", GIT, ALLOW),
    ("git status &> /dev/null", GIT, ALLOW),
    ("echo hi > ~/.ssh/authorized_keys", ("allow echo",), ASK),
    ("echo hi >> ~/.ssh/authorized_keys", ("allow echo",), ASK),
    ("cat < notes.txt", ("allow cat",), ALLOW),
    # the command name matches only as written; wrappers and prefixes fail closed
    ("./git status", GIT, ASK),
    ("~/bin/git status", GIT, ASK),
    ("/usr/bin/git status", GIT, ASK),
    ("env git status", GIT, ASK),
    ("FOO=1 git status", GIT, ASK),
    ("timeout 5 git status", GIT, ASK),
    ("xargs git status", GIT, ASK),
    ("sh -c 'git status'", GIT, ASK),
    ("bash -c 'git status'", GIT, ASK),
    ("export PATH=/tmp; git status", GIT, ASK),
    # dynamic evaluation and expansion: not even `*` approves them
    ("eval git status", GIT, ASK),
    ("eval git status", ("allow *",), ASK),
    ("source x", ("allow *",), ASK),
    (". ./env.sh", ("allow *",), ASK),
    ("exec git status", ("allow *",), ASK),
    ("command eval x", ("allow *",), ASK),
    ("echo $HOME", ("allow echo",), ASK),
    ("echo ${PATH}", ("allow echo",), ASK),
    ("echo $((1 + 2))", ("allow echo",), ASK),
    ("FOO=1", ("allow *",), ASK),
    ("if true; then git status; fi", ("allow git status", "allow true"), ASK),
    ('git status "unterminated', GIT, ASK),
    ("", ("allow *",), ASK),
    ("true && false", ("allow *",), ALLOW),
    ("uv run pytest -q", ("allow uv run *",), ALLOW),
    ("uv sync", ("allow uv run *",), ASK),
    # deny wins, whatever the specificity, wherever the command hides
    ("rm -rf build", ANY_BUT_RM, DENY),
    ("git status", ("deny git", "allow git status"), DENY),
    ("git push --force", ("allow git", "deny git push"), DENY),
    ("git push", ("allow git", "deny git push --force"), ALLOW),
    ("echo rm", ANY_BUT_RM, ALLOW),
    ("git status $(rm -rf x)", ANY_BUT_RM, DENY),
    ("echo `rm x`", ANY_BUT_RM, DENY),
    ("cat <<EOF\n$(rm x)\nEOF\n", ANY_BUT_RM, DENY),
    ("if true; then rm x; fi", ANY_BUT_RM, DENY),
    ("f() { rm -rf x; }; f", ANY_BUT_RM, DENY),
    ("git status && rm x", ANY_BUT_RM, DENY),
    ('r""m -rf x', ANY_BUT_RM, DENY),
    ("'rm' x", ANY_BUT_RM, DENY),
    ("/bin/rm x", ANY_BUT_RM, DENY),
    ("FOO=1 rm x", ANY_BUT_RM, DENY),
    ("env rm x", ANY_BUT_RM, DENY),
    ("timeout 5 rm x", ANY_BUT_RM, DENY),
    ("xargs rm", ANY_BUT_RM, DENY),
    ("find . -exec rm {} \\;", ANY_BUT_RM, DENY),
    ("sh -c 'git status'", ANY_BUT_RM, ASK),  # inline code: not even `*` covers it
    ('bash -c "rm -rf x"', ANY_BUT_RM, DENY),
    ("bash -ec 'rm x'", ANY_BUT_RM, DENY),
    ("sh -c 'eval \"rm -rf x\"'", ANY_BUT_RM, DENY),
    ("eval rm x", ANY_BUT_RM, DENY),
    ("{rm,-rf,x}", ANY_BUT_RM, ASK),
    ("r\\\nm -rf x", ANY_BUT_RM, ASK),  # bash joins the word back into `rm`
    ("git status\0; rm x", ("allow *",), ASK),
    ("coproc rm x", ANY_BUT_RM, DENY),
    ("time rm x", ANY_BUT_RM, DENY),
    ("! rm x", ANY_BUT_RM, DENY),
    ("git status", ("deny *", "allow git status"), DENY),
]


@pytest.mark.parametrize(("command", "specs", "expected"), BYPASS_TABLE)
def test_bypass_table(command: str, specs: tuple[str, ...], expected: str) -> None:
    assert outcome(command, specs) == expected


def test_each_command_names_its_most_specific_rule() -> None:
    rules = rules_of("allow git", "allow git status", "allow ls")
    match = match_shell_rules(
        analyze_shell("git status -s && ls -la"), rules, now_ms=0, fingerprint=None
    )
    assert [r.pattern for r in match.rules] == ["git status", "ls"]
    assert match.rule is not None and match.rule.pattern == "git status"
    assert match.reason == "allow_rule"


def test_deny_names_the_deny_rule() -> None:
    match = match_shell_rules(
        analyze_shell("ls; rm x"), rules_of(*ANY_BUT_RM), now_ms=0, fingerprint=None
    )
    assert (match.outcome, match.reason) == ("deny", "deny_rule")
    assert match.rule is not None and match.rule.pattern == "rm"


@pytest.mark.parametrize(
    ("command", "reason"),
    [("git status > x", "write_redirection"), ("git stash", "no_rule"), ("", "empty")],
)
def test_no_match_says_why(command: str, reason: str) -> None:
    match = match_shell_rules(analyze_shell(command), rules_of(*GIT), now_ms=0, fingerprint=None)
    assert (match.outcome, match.reason, match.rule) == ("none", reason, None)


def test_rules_for_other_tools_never_match_bash() -> None:
    rules = RuleSet([Rule(tool="write_file", pattern="**"), Rule(tool="web_fetch")])
    match = match_shell_rules(analyze_shell("ls"), rules, now_ms=0, fingerprint=None)
    assert match.outcome == "none"


# Lines that once ran a hidden command under another command's rule (tree-sitter and bash
# disagreed); each must ask.
HIDDEN_COMMANDS = [
    ('cat <<E"O"F\nEOF\nrm -rf x\nE"O"F\n', ("allow cat",)),
    ("cat <<\\EOF\nEOF\nrm -rf x\n\\EOF\n", ("allow cat",)),
    ("cat <<E\\OF\nEOF\nrm -rf x\nE\\OF\n", ("allow cat",)),
    ("echo a \\\r\nrm -rf x", ("allow echo",)),
    ("echo a \\\r\nrm -rf x", ("allow echo", "allow rm")),  # argv differs from what bash runs
]


@pytest.mark.parametrize(("command", "specs"), HIDDEN_COMMANDS)
def test_hidden_commands_ask(command: str, specs: tuple[str, ...]) -> None:
    assert outcome(command, specs) == ASK


# The argument policy on top of a rule: flags that run other code never ride on a rule.
ARGUMENT_POLICY = [
    ("git log --oneline", ("allow git log",), ALLOW),
    ("git log --ext-diff", ("allow git log",), ASK),
    ("git -c core.pager=sh log", ("allow git",), ASK),
    ("git diff --output=/tmp/x", ("allow git diff",), ASK),
    ("git submodule foreach 'rm -rf x'", ("allow git submodule",), ASK),
    ("git config core.fsmonitor x", ("allow git config",), ASK),
    ("git config user.name x", ("allow git config",), ALLOW),
    ("npm run build --script-shell=./x", ("allow npm run",), ASK),
    ("npm run build", ("allow npm run",), ALLOW),
    ("pytest -p evil", ("allow pytest",), ASK),
    ("pytest -q tests", ("allow pytest",), ALLOW),
    ("find . -name x -exec rm {} +", ("allow *",), ASK),
    ("find . -delete", ("allow *",), ASK),
    ("find . /etc -name x", ("allow *",), ASK),
    ("find . -name x", ("allow *",), ALLOW),
    ("xargs rm < list", ("allow *",), ASK),
    ("env FOO=1 ls", ("allow *",), ASK),
    ("sed -i s/a/b/ f", ("allow sed",), ASK),
    ("sed -i s/a/b/ f", ("allow sed -i",), ALLOW),
    ("sed 's/a/id/e' f", ("allow sed",), ASK),
    ("awk 'BEGIN{system(\"id\")}'", ("allow awk",), ASK),
    ("tar -xf a.tar --to-command=sh", ("allow tar",), ASK),
    ("rsync -e 'sh -c id' a b", ("allow rsync",), ASK),
    ("ssh -o ProxyCommand=id h", ("allow ssh",), ASK),
    ("python -c 'import os'", ("allow python",), ASK),
    ("python script.py", ("allow python",), ALLOW),
    ("ls && git log --ext-diff", ("allow ls", "allow git log"), ASK),
    # deny rules now look through runners too
    ("uv run rm -rf x", ("allow *", "deny rm"), DENY),
    ("npx rimraf x", ("allow *", "deny rimraf"), DENY),
]


@pytest.mark.parametrize(("command", "specs", "expected"), ARGUMENT_POLICY)
def test_argument_policy_under_rules(command: str, specs: tuple[str, ...], expected: str) -> None:
    assert outcome(command, specs) == expected


def test_an_argument_refusal_says_why() -> None:
    match = match_shell_rules(
        analyze_shell("git log --ext-diff"), rules_of("allow git"), now_ms=0, fingerprint=None
    )
    assert (match.outcome, match.reason) == ("none", "runs_code")


def test_deny_through_a_wrapper_chain() -> None:
    """Looked through up to 64 wrapper levels; longer chains are blocked as dangerous
    (`too_complex`, see test_destructive) before rules are consulted."""
    assert outcome("nice " * 40 + "rm -rf x", ANY_BUT_RM) == DENY
    assert outcome("nice " * 5000 + "rm -rf x", ANY_BUT_RM) != ALLOW


@pytest.mark.parametrize(
    ("command", "specs"),
    [
        ("bash <<'EOF'\nrm -rf ~\nEOF", ("allow bash",)),
        ("python3 <<< 'import os; os.system(\"id\")'", ("allow python3",)),
        ("cat x | bash", ("allow cat", "allow bash")),
        ("cat x | sh -s", ("allow cat", "allow sh")),
        ("node - <<'EOF'\nx\nEOF", ("allow node",)),
    ],
)
def test_a_shell_reading_code_from_its_input_asks(command: str, specs: tuple[str, ...]) -> None:
    """`bash <<'EOF' ... EOF` is `bash -c` in disguise: the heredoc is code the rule never saw."""
    assert outcome(command, specs) == ASK


@pytest.mark.parametrize(
    ("command", "specs"),
    [
        ("cat x | bash build.sh", ("allow cat", "allow bash")),
        ("python3 x.py < in.txt", ("allow python3",)),
    ],
)
def test_a_script_file_with_data_on_its_input_is_covered(
    command: str, specs: tuple[str, ...]
) -> None:
    assert outcome(command, specs) == ALLOW
