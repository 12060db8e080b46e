"""`/dev/tcp` and `/dev/udp` redirections open sockets in bash: never auto-approved (issue 23
item 4), whatever rule covers the command."""

from __future__ import annotations

import pytest

from jarvis.core.policy.shell import analyze_shell
from tests.unit.policy.test_canonical import match

SOCKETS = [
    "cat </dev/tcp/127.0.0.1/80", "cat < /dev/tcp/example.com/443", "cat </dev/udp/8.8.8.8/53",
    "echo hi >/dev/tcp/127.0.0.1/9", "echo hi > /dev/udp/127.0.0.1/9", "cat 0</dev/tcp/h/1",
    "cat <'/dev/tcp/h/1'", 'cat <"/dev/tcp/h/1"', "cat <//dev/tcp/h/1", "cat </dev//tcp/h/1",
    "cat </dev/./tcp/h/1", "ls >&/dev/tcp/h/1", "cat <>/dev/tcp/h/1", "cat 3</dev/tcp/h/1",
    "echo x | cat >>/dev/udp/h/1", "cat </dev/tcp/h/1 | grep x",
]  # fmt: skip


@pytest.mark.parametrize("command", SOCKETS)
def test_a_socket_redirection_is_never_auto_approved(command: str) -> None:
    assert "network_redirection" in analyze_shell(command).unsafe
    assert match(command, ("allow cat", "allow echo", "allow ls", "allow grep"))[0] == "none"
    assert match(command, ("allow *",))[0] == "none"


@pytest.mark.parametrize(
    "command", ["cat /dev/tcp/h/1", "cat < dev/tcp/x", "cat < /dev/tcpx", "echo /dev/udp/x"]
)
def test_look_alikes_are_not_sockets(command: str) -> None:
    assert "network_redirection" not in analyze_shell(command).unsafe
