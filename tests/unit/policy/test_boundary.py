"""The workspace boundary as a pure function: one row per case of the issue's table."""

from __future__ import annotations

import pytest

from jarvis.core.policy.boundary import (
    Boundary,
    shell_path_candidates,
    validate_secret_pattern,
)

WS, HOME, JH = "/home/u/proj", "/home/u", "/home/u/.jarvis"
B = Boundary(WS, HOME, JH, extra=("~/vault", "*.kdbx", "secrets/**"))


@pytest.mark.parametrize(
    ("lexical", "real", "verdict", "reason", "path"),
    [
        # inside the workspace: free
        (f"{WS}/src/main.py", f"{WS}/src/main.py", "free", "inside_workspace", f"{WS}/src/main.py"),
        (WS, WS, "free", "inside_workspace", WS),
        # outside: ask, naming the outside path
        ("/etc/hosts", "/etc/hosts", "ask", "outside_workspace", "/etc/hosts"),
        (f"{HOME}/notes/a.txt", f"{HOME}/notes/a.txt", "ask", "outside_workspace", ""),
        ("/home/u/proj2/x", "/home/u/proj2/x", "ask", "outside_workspace", ""),  # prefix trap
        # a symlink inside pointing outside: the real path asks
        (f"{WS}/link/x", "/srv/data/x", "ask", "outside_workspace", "/srv/data/x"),
        # `..` folded lexically leaves, the real path stays: either outside asks
        ("/home/u/x", f"{WS}/x", "ask", "outside_workspace", "/home/u/x"),
        # secrets: forbidden, whichever path names them
        (f"{HOME}/.ssh/id_rsa", f"{HOME}/.ssh/id_rsa", "forbidden", "secret_path", ""),
        (f"{WS}/deploy/.ssh/id_ed25519", "", "forbidden", "secret_path", ""),
        (f"{WS}/key", f"{HOME}/.ssh/id_rsa", "forbidden", "secret_path", f"{HOME}/.ssh/id_rsa"),
        (f"{HOME}/.aws/credentials", "", "forbidden", "secret_path", ""),
        (f"{HOME}/.gnupg", "", "forbidden", "secret_path", ""),
        (f"{HOME}/.config/gcloud/application_default_credentials.json", "", "forbidden", "", ""),
        (f"{WS}/.env", "", "forbidden", "secret_path", ""),
        (f"{WS}/app/.env.local", "", "forbidden", "secret_path", ""),
        (f"{WS}/.envrc", "", "forbidden", "secret_path", ""),
        (f"{WS}/.ENV", "", "forbidden", "secret_path", ""),  # case-insensitive file systems
        (f"{HOME}/.SSH/id_rsa", "", "forbidden", "secret_path", ""),
        (f"{JH}/config.yaml", "", "forbidden", "secret_path", ""),
        (JH, "", "forbidden", "secret_path", ""),
        (f"{JH}/approvals.yaml", "", "forbidden", "secret_path", ""),
        ("/etc/shadow", "", "forbidden", "secret_path", ""),
        ("/etc/sudoers.d/admins", "", "forbidden", "secret_path", ""),
        ("/etc/ssh/ssh_host_ed25519_key", "", "forbidden", "secret_path", ""),
        ("/proc/self/environ", "/proc/4242/environ", "forbidden", "secret_path", ""),
        ("/proc/4242/task/4243/environ", "", "forbidden", "secret_path", ""),
        ("/var/run/secrets/kubernetes.io/serviceaccount/token", "", "forbidden", "", ""),
        # extra globs from the settings
        (f"{HOME}/vault/a", "", "forbidden", "secret_path", ""),
        (f"{WS}/db/passwords.kdbx", "", "forbidden", "secret_path", ""),
        (f"{WS}/secrets/prod/key.pem", "", "forbidden", "secret_path", ""),
        # near misses stay readable
        (f"{WS}/environment.md", "", "free", "inside_workspace", ""),
        (f"{WS}/docs/ssh.md", "", "free", "inside_workspace", ""),
        ("/etc/shadowsocks.json", "/etc/shadowsocks.json", "ask", "outside_workspace", ""),
        ("/proc/self/status", "/proc/1/status", "ask", "outside_workspace", ""),
        (f"{HOME}/.ssh_notes", f"{HOME}/.ssh_notes", "ask", "outside_workspace", ""),
    ],
)
def test_judge(lexical: str, real: str, verdict: str, reason: str, path: str) -> None:
    result = B.judge(lexical, real or lexical)
    assert result.verdict == verdict
    if reason:
        assert result.reason == reason
    if path:
        assert result.path == path


def test_a_forbidden_verdict_names_the_pattern() -> None:
    assert B.judge(f"{WS}/.env.production", f"{WS}/.env.production").secret == ".env*"
    assert B.judge(f"{JH}/x", f"{JH}/x").secret == "$JARVIS_HOME"


@pytest.mark.parametrize(
    ("workspace", "path", "secret"),
    [
        # The data dir used as the workspace: only its data entries are secret.
        (JH, f"{JH}/notes.txt", False),
        (JH, f"{JH}/config.yaml", True),
        (JH, f"{JH}/web_secret", True),  # signs the HUD login cookies
        (JH, f"{JH}/approvals/main.yaml", True),
        (JH, f"{JH}/sessions/s1.jsonl", True),
        (JH, f"{JH}/tools/mine.py", True),
        (JH, f"{JH}/memory.sqlite3", True),
        (f"{JH}/work", f"{JH}/work/a.txt", False),
        (f"{JH}/work", f"{JH}/plugins/p.py", True),
        # The data dir inside the workspace: all of it.
        (HOME, f"{JH}/notes.txt", True),
    ],
)
def test_jarvis_home_as_workspace(workspace: str, path: str, secret: bool) -> None:
    assert (Boundary(workspace, HOME, JH).secret(path) is not None) is secret


def test_without_jarvis_home_it_is_not_protected_by_name() -> None:
    assert Boundary(WS, HOME).secret(f"{JH}/config.yaml") is None


def test_a_workspace_relative_extra_pattern_and_the_root_workspace() -> None:
    assert Boundary(WS, HOME, extra=["conf/prod.yaml"]).secret(f"{WS}/conf/prod.yaml")
    root = Boundary("/", HOME)
    assert root.judge("/etc/hosts", "/etc/hosts").verdict == "free"
    assert root.judge("/etc/shadow", "/etc/shadow").verdict == "forbidden"


@pytest.mark.parametrize(
    ("lexical", "real", "root", "verdict"),
    [
        (f"{WS}/src/a.py", f"{WS}/src/a.py", f"{WS}/src", "ok"),
        (f"{WS}/.env", f"{WS}/.env", WS, "secret"),
        (f"{WS}/src/key", f"{HOME}/.ssh/id_rsa", f"{WS}/src", "secret"),
        (f"{WS}/src/link", "/srv/elsewhere/x", f"{WS}/src", "outside"),
        (f"{WS}/src/link", f"{WS}/docs/x", f"{WS}/src", "ok"),  # elsewhere in the workspace
        ("/etc/hosts", "/etc/hosts", "/etc", "ok"),  # the approved directory itself
        ("/etc/link", f"{HOME}/notes", "/etc", "outside"),
    ],
)
def test_walk_entry(lexical: str, real: str, root: str, verdict: str) -> None:
    assert B.walk_entry(lexical, real, root) == verdict


@pytest.mark.parametrize(
    ("path", "holds"),
    [("/", True), (HOME, True), ("/home", True), ("/etc", True), ("/proc", True), (JH, False)],
)
def test_directories_holding_a_secret(path: str, holds: bool) -> None:
    assert B.holds_secret(path) is holds
    assert not B.holds_secret(f"{WS}/src")


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (("cat", "~/.ssh/id_rsa"), {"cat", f"{HOME}/.ssh/id_rsa"}),
        (("ssh", "-i~/.ssh/key", "host"), {f"{HOME}/.ssh/key", "-i~/.ssh/key"}),
        (("curl", "--data-binary=@/etc/shadow"), {"@/etc/shadow", "/etc/shadow"}),
        (("rsync", "host:~/x"), {f"{HOME}/x"}),
        (("ls", "~"), {HOME}),
    ],
)
def test_shell_path_candidates(words: tuple[str, ...], expected: set[str]) -> None:
    assert expected <= set(shell_path_candidates(words, HOME))


@pytest.mark.parametrize("pattern", ["", "  ", "*", "**", "/", "/**"])
def test_secret_patterns_that_would_cover_everything_are_refused(pattern: str) -> None:
    with pytest.raises(ValueError):
        validate_secret_pattern(pattern)
