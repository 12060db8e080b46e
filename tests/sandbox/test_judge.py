"""The pure parts: the bwrap command line, the network judgement, the network grant."""

from __future__ import annotations

import pytest

from jarvis.core.confine.judge import leaves_sandbox, needs_network, network_granted
from jarvis.core.confine.plan import Confinement, Limits, bwrap_argv, dns_dirs


def test_the_command_line_confines() -> None:
    argv = bwrap_argv(
        "bwrap",
        Confinement("/w", ("/h/.ssh",), ("/h/.netrc",), False, Limits(tmp_mb=8)),
        ["bash", "-c", "x"],
    )
    text = " ".join(argv)
    assert argv[:4] == ["bwrap", "--ro-bind", "/", "/"]
    assert "--size 8388608 --tmpfs /tmp" in text
    assert "--tmpfs /h/.ssh" in text and "--ro-bind /dev/null /h/.netrc" in text
    assert text.index("--tmpfs /h/.ssh") < text.index("--bind /w /w")
    assert "--share-net" not in argv and "--unshare-all" in argv
    for flag in ("--die-with-parent", "--new-session", "--as-pid-1"):
        assert flag in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert argv[-4:] == ["--", "bash", "-c", "x"]
    assert "--share-net" in bwrap_argv("bwrap", Confinement("/w", network=True), ["x"])


def test_dns_under_run_is_bound_back_only_with_network() -> None:
    assert dns_dirs("/run/systemd/resolve/stub-resolv.conf") == ("/run/systemd/resolve",)
    assert dns_dirs("/etc/resolv.conf") == ()
    c = Confinement("/w", network=False, dns_dirs=("/run/systemd/resolve",))
    assert "/run/systemd/resolve" not in bwrap_argv("b", c, ["x"])


@pytest.mark.parametrize(
    ("command", "needs"),
    [
        ("pytest -q", False),
        ("git status && git diff", False),
        ("git commit -am x", False),
        ("grep -rn foo src | head", False),
        ("make build", False),
        ("python -m pytest tests", False),
        ("curl https://example.com", True),
        ("git push origin main", True),
        ("git -C . fetch", True),
        ("pip install requests", True),
        ("python3 -m pip install x", True),
        ("npm ci", True),
        ("npm test", False),
        ("env FOO=1 timeout 5 wget x", True),
        ("cat </dev/tcp/1.2.3.4/80", True),
        ("echo x > /dev/udp/1.2.3.4/53", True),
        ("ssh host ls", True),
        ("cargo build", False),
        ("cargo install ripgrep", True),
        ("npx prettier .", True),
        ('eval "$(echo curl x)"', True),  # not understood: counts as needing it
    ],
)
def test_needs_network(command: str, needs: bool) -> None:
    assert needs_network(command) is needs


@pytest.mark.parametrize(
    ("command", "leaves"),
    [("sudo ls", True), ("docker ps", True), ("ls | sudo tee x", True), ("ls -la", False)],
)
def test_leaves_sandbox(command: str, leaves: bool) -> None:
    assert leaves_sandbox(command) is leaves


@pytest.mark.parametrize(
    ("decision", "command", "granted"),
    [
        ({"outcome": "allow", "reason": "user_once"}, "ls", True),
        ({"outcome": "allow", "reason": "user_always"}, "curl x", True),
        ({"outcome": "allow", "reason": "not_required"}, "curl x", False),
        ({"outcome": "allow", "reason": "sandboxed"}, "curl x", False),
        ({"outcome": "allow", "reason": "preapproved"}, "curl x", False),
        ({"outcome": "allow", "reason": "rule:a", "rule": "a: allow bash *"}, "curl x", False),
        ({"outcome": "allow", "reason": "rule:a", "rule": "a: allow bash curl *"}, "curl x", True),
        (
            {"outcome": "allow", "reason": "rule:a", "rule": "a: allow bash python *"},
            "python x",
            False,
        ),
        ({"outcome": "deny", "reason": "user_once"}, "curl x", False),
        (None, "curl x", False),
    ],
)
def test_network_granted(decision: dict[str, str] | None, command: str, granted: bool) -> None:
    assert network_granted(decision, command) is granted
