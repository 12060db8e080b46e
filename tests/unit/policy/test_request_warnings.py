"""What a bash approval request warns about: compound lines, destructive commands, hidden text."""

from __future__ import annotations

import pytest

from jarvis.core.policy.request_warnings import is_destructive, shell_warnings
from jarvis.core.policy.shell import analyze_shell

DESTRUCTIVE = [
    "rm x", "rm -rf build", "rmdir d", "unlink f", "shred f", "truncate -s 0 f",
    "dd if=a of=b", "mv a b", "chmod -R 755 d", "chown -R me d", "find . -delete",
    "find . -exec rm {} +", "sed -i s/a/b/ f", "perl -i -pe s/a/b/ f", "tee out.txt",
    "echo x > f", "git push --force", "git push -f origin main", "git push origin +main",
    "git push origin :old", "git push --force-with-lease=main", "git push --delete origin x",
    "git reset --hard", "git clean -fdx", "git checkout -- .", "git checkout -f main",
    "git restore f", "git restore --staged --worktree f", "git branch -D x",
    "git stash drop", "git stash clear", "git rm f", "git filter-branch x",
    "git worktree remove w", "git tag -d v1", "docker rm c", "kubectl delete pod x",
    "timeout 5 rm x", "xargs rm",
]  # fmt: skip

NOT_DESTRUCTIVE = [
    "ls", "git status", "git push", "git push origin main", "git reset HEAD~1 --soft",
    "git clean -n", "git checkout main", "git restore --staged f", "git branch x",
    "git stash", "mv -n a b", "chmod 755 f", "find . -name x", "sed -n 1p f", "tee -a log",
    "echo x | tee", "echo x > /dev/null", "echo x 2> /dev/stderr", "cat f", "cp a b",
]  # fmt: skip


@pytest.mark.parametrize("command", DESTRUCTIVE)
def test_destructive(command: str) -> None:
    assert is_destructive(analyze_shell(command))


@pytest.mark.parametrize("command", NOT_DESTRUCTIVE)
def test_not_destructive(command: str) -> None:
    assert not is_destructive(analyze_shell(command))


@pytest.mark.parametrize(
    ("command", "warnings"),
    [
        ("ls", []),
        ("ls && pwd", ["compound"]),
        ("ls $(pwd)", ["compound"]),
        ("echo $HOME", ["compound"]),
        ("rm -rf build", ["destructive"]),
        ("ls; rm x", ["compound", "destructive"]),
        ("echo a\x1b[31m", ["compound", "control_chars"]),
        ("echo \u202etxt.exe", ["control_chars"]),
        ("echo a\u200bb", ["control_chars"]),
        ("ls\tsrc", []),
    ],
)
def test_warnings(command: str, warnings: list[str]) -> None:
    assert shell_warnings(command, analyze_shell(command)) == warnings


def test_a_bare_assignment_is_not_destructive() -> None:
    assert shell_warnings("a=b", analyze_shell("a=b")) == ["compound"]
