"""A planted world for the attacker: a temporary HOME (outside /tmp, so the private /tmp does
not hide it by accident) with fake keys, a workspace inside it, a `.env` beside it, a
`$JARVIS_HOME`, and local TCP/UDP listeners that record whether anything reached them."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jarvis.agent_layer.tools import ToolCallContext, ToolResult
from jarvis.core.config import SecuritySettings
from jarvis.core.confine import Confiner, Limits
from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.sandbox import Decision, Sandbox
from jarvis.core.tools.base import ToolEnv
from jarvis.core.tools.builtins.shell import BashTool
from jarvis.model_layer import ToolCall
from tests.integration.gate.test_decide import FixedClock

KEY = "FAKE-PRIVATE-KEY-7d1e"  # in every planted secret: seen in any output = read
# Small limits so the bombs hit them quickly without loading the machine.
LIMITS = Limits(processes=64, memory_mb=256, file_mb=16, tmp_mb=32)
STAR_RULE = Decision("allow", "rule:approvals.yaml", rule="approvals.yaml: allow bash *")


@dataclass
class World:
    root: Path
    home: Path
    ws: Path
    data: Path  # JARVIS_HOME
    outside: Path  # a writable directory outside the workspace
    tcp: socket.socket
    udp: socket.socket
    dns: socket.socket
    gate: Sandbox = field(init=False)
    # In the marks of escaping processes: another test's leftovers are never this one's.
    tag: str = field(default_factory=lambda: uuid.uuid4().hex[:8])

    def fill(self, text: str) -> str:
        return text.format(
            home=self.home,
            outside=self.outside,
            data=self.data,
            tcp=self.tcp.getsockname()[1],
            udp=self.udp.getsockname()[1],
            dns=self.dns.getsockname()[1],
            tag=self.tag,
        )

    def tcp_reached(self) -> bool:
        """A connection completed its handshake: it waits in the backlog (no timing)."""
        self.tcp.setblocking(False)
        try:
            conn, _ = self.tcp.accept()
        except BlockingIOError:
            return False
        conn.close()
        return True

    def udp_reached(self, sock: socket.socket) -> bool:
        """A datagram sent on loopback is queued before `sendto` returns."""
        sock.setblocking(False)
        try:
            sock.recvfrom(4096)
        except BlockingIOError:
            return False
        return True

    async def run(
        self,
        command: str,
        *,
        sandbox: bool,
        gate: bool = True,
        timeout: float = 60.0,
        ahead: bool = False,
    ) -> tuple[Decision, ToolResult | None]:
        """The gate (a `*` rule for bash) decides and what it allows runs, confined or not;
        `gate=False` is a gate miss: the call runs as if that rule had allowed it. `ahead`: the
        tool ran `true` first, so this call's bubblewrap was started ahead (`_ready.py`)."""
        call = ToolCall(id="c", name="bash", arguments={"command": command})
        ctx = ToolCallContext("s1", "main", 1, asyncio.Event())
        tool = bash_tool(self, sandbox)
        if ahead:
            others = set(started_ahead())  # other tools' (earlier tests)
            warm = ToolEnv(workspace=self.ws, call=ctx)
            await tool.execute("w", {"command": "true"}, warm)
            await asyncio.sleep(0)  # the next bwrap is started right after a call
            assert set(started_ahead()) - others, "no bubblewrap waiting for the next call"
        decision = STAR_RULE
        if gate:
            decision = await self.gate.decide(tool, call, ctx)
        if not decision.allowed:
            return decision, None
        env = ToolEnv(workspace=self.ws, call=ctx, decision=decision.as_dict())
        return decision, await tool.execute("c", {"command": command, "timeout": timeout}, env)


def confiner(world: World, mode: str = "required") -> Confiner:
    return Confiner(mode, LIMITS, world.home, world.data)  # type: ignore[arg-type]


def bash_tool(world: World, sandbox: bool) -> BashTool:
    return BashTool(confiner=confiner(world) if sandbox else None, kill_grace=0.5)


def plant(home: Path) -> None:
    secrets = {
        ".ssh/id_rsa": f"-----BEGIN OPENSSH PRIVATE KEY-----\n{KEY}\n",
        ".aws/credentials": f"[default]\naws_secret_access_key = {KEY}\n",
        ".gnupg/private-keys-v1.d/key.key": KEY,
        ".local/share/keyrings/login.keyring": KEY,
        ".config/gh/hosts.yml": f"oauth_token: {KEY}\n",
        ".netrc": f"machine example.com password {KEY}\n",
        ".env": f"OPENAI_API_KEY={KEY}\n",
        "projects/.env": f"DATABASE_PASSWORD={KEY}\n",
        ".jarvis/config.yaml": f"providers:\n  openai:\n    api_key: {KEY}\n",
        ".jarvis/web_secret": KEY,
    }
    for name, text in secrets.items():
        path = home / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (home / ".bashrc").write_text("# clean\n")


@contextlib.contextmanager
def world(monkeypatch: Any) -> Iterator[World]:
    root = Path(tempfile.mkdtemp(prefix="jarvis-sandbox-", dir="/var/tmp")).resolve()
    home = root / "home"
    ws = home / "projects" / "app"
    outside = root / "outside"
    for path in (ws, outside):
        path.mkdir(parents=True)
    plant(home)
    data = home / ".jarvis"
    (data / "approvals.yaml").write_text("rules:\n  - {tool: bash, pattern: '*'}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("JARVIS_HOME", str(data))
    sockets = []
    # Another process of this user holding a secret in its environment.
    holder = subprocess.Popen(["sleep", "1000"], env={"SECRET": KEY})
    try:
        tcp = socket.create_server(("127.0.0.1", 0))
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.bind(("127.0.0.1", 0))
        dns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        dns.bind(("127.0.0.1", 0))
        sockets = [tcp, udp, dns]
        w = World(root, home, ws, data, outside, tcp, udp, dns)
        w.gate = Sandbox(
            settings=SecuritySettings(),
            rules=RuleStore(data),
            approvals=None,
            workspace=ws,
            clock=FixedClock(),
            user_home=home,
            jarvis_home=data,
        )
        yield w
    finally:
        holder.kill()
        holder.wait()
        for sock in sockets:
            sock.close()
        shutil.rmtree(root, ignore_errors=True)


def processes_named(marker: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        with contextlib.suppress(OSError):
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
    return found


def started_ahead() -> list[int]:
    """Our children waiting to be a confined call's bubblewrap (`--args` on a pipe); other tools'
    too (a tool not yet collected keeps its own)."""
    me = os.getpid()
    children = Path(f"/proc/{me}/task/{me}/children").read_text().split()
    return [int(pid) for pid in children if b"\0--args\0" in _command_line(int(pid))]


def _command_line(pid: int) -> bytes:
    """Its command line; read again while it is empty for a live process (it is in `execve`:
    the bash that joined the pids cgroup becoming bwrap)."""
    while True:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return b""
        if argv or state in ("Z", "X"):
            return argv
