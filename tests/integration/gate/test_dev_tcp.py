"""`cat </dev/tcp/…` under a `cat` rule (issue 23 item 4), through the real gate and the real
bash tool, with a real listening socket: the call asks (nobody answers here), and no connection
ever reaches the listener. The same line with the gate out of the way does connect, so the test
would see one."""

from __future__ import annotations

import socket
from pathlib import Path

from jarvis.core.approvals.audit import AuditLog
from jarvis.core.config import SecuritySettings
from jarvis.core.policy.gate import Gate
from jarvis.core.tools.builtins import builtin_tools
from jarvis.core.tools.executor import GatedTools
from jarvis.core.tools.registry import ToolRegistry
from jarvis.model_layer import ToolCall
from tests.integration.gate.test_decide import ctx, make

RULES = "rules:\n  - {tool: bash, pattern: cat}\n  - {tool: bash, pattern: echo}\n"


def tools_for(workspace: Path, gated: bool) -> GatedTools:
    registry = ToolRegistry()
    # The control runs without the OS sandbox too: inside it bash has no network at all.
    security = SecuritySettings(sandbox="auto" if gated else "off")
    for tool in builtin_tools(security=security):
        registry.register(tool)
    sandbox, _ = make(workspace, [None], rules=RULES)
    return GatedTools(registry, workspace, Gate(sandbox, AuditLog(), "en") if gated else None)


def connections(listener: socket.socket) -> int:
    listener.setblocking(False)
    count = 0
    while True:
        try:
            conn, _ = listener.accept()
        except BlockingIOError:
            return count
        conn.close()
        count += 1


async def test_dev_tcp_under_a_cat_rule_asks_and_never_connects(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        target = f"/dev/tcp/127.0.0.1/{port}"
        lines = [f"cat <{target}", f"echo hi >{target}", f"cat < /dev//tcp/127.0.0.1/{port}"]
        gated = tools_for(tmp_path, gated=True)
        for line in lines:
            call = ToolCall(id="c", name="bash", arguments={"command": line})
            result = await gated.execute(call, ctx())
            assert result.is_error and "exit code" not in result.content, (line, result.content)
        assert connections(listener) == 0
        # the control: without the gate bash really connects, so the check above could fail
        plain = tools_for(tmp_path, gated=False)
        call = ToolCall(id="d", name="bash", arguments={"command": f"echo hi >{target}"})
        await plain.execute(call, ctx())
        listener.setblocking(True)
        listener.settimeout(30)
        conn, _ = listener.accept()
        conn.close()
