"""The workspace and network boundary at the gate: `Sandbox.decide` with real files, real
symlinks and real rule files (a scripted human answers)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from jarvis.core.approvals.audit import AuditLog
from jarvis.core.approvals.channel import ChannelRegistry
from jarvis.core.approvals.pending import MemoryPendingStore
from jarvis.core.approvals.service import ApprovalService
from jarvis.core.config import SecuritySettings
from jarvis.core.policy.gate import Gate
from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.sandbox import Decision, Sandbox
from jarvis.model_layer import ToolCall
from tests.integration.gate.test_decide import TOOLS, FixedClock, ScriptedHuman, ctx


@dataclass
class Setup:
    sandbox: Sandbox
    human: ScriptedHuman
    home: Path  # the user's home (HOME)
    ws: Path  # the workspace
    data: Path  # JARVIS_HOME

    async def decide(self, tool: str, *, dry_run: bool = False, **args: Any) -> Decision:
        call = ToolCall(id="c", name=tool, arguments=args)
        return await self.sandbox.decide(TOOLS[tool], call, ctx(), dry_run=dry_run)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "home"
    (path / ".ssh").mkdir(parents=True)
    (path / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    monkeypatch.setenv("HOME", str(path))
    return path


def make(
    tmp_path: Path,
    home: Path,
    answers: list[str | None] | None = None,
    *,
    rules: str | None = None,
    **security: Any,
) -> Setup:
    ws, data = tmp_path / "ws", tmp_path / "data"
    ws.mkdir(exist_ok=True)
    data.mkdir(exist_ok=True)
    if rules is not None:
        (data / "approvals.yaml").write_text(rules, encoding="utf-8")
    pending, channels = MemoryPendingStore(), ChannelRegistry()
    human = ScriptedHuman(pending, answers or [])
    channels.attach("s1", human)
    sandbox = Sandbox(
        settings=SecuritySettings(approval_timeout_sec=0.3, **security),
        rules=RuleStore(data),
        approvals=ApprovalService(pending, channels),
        workspace=ws,
        clock=FixedClock(),
        jarvis_home=data,
    )
    return Setup(sandbox, human, home, ws, data)


@pytest.mark.parametrize("pattern", ["'*'", "'/**'", "'**'", "'~/.ssh/*'"])
async def test_a_key_is_never_readable_whatever_the_rules(
    tmp_path: Path, home: Path, pattern: str
) -> None:
    s = make(
        tmp_path, home, ["allow"], rules=f"rules:\n  - {{tool: read_file, pattern: {pattern}}}\n"
    )
    for path in ("~/.ssh/id_rsa", str(home / ".ssh/id_rsa"), "../home/.ssh/id_rsa"):
        decision = await s.decide("read_file", path=path)
        assert (decision.outcome, decision.reason) == ("block", "secret_path")
        assert decision.detail == str(home / ".ssh/id_rsa")
    assert s.human.requests == []


async def test_a_read_outside_asks_for_the_directory_and_always_remembers_it(
    tmp_path: Path, home: Path
) -> None:
    s = make(tmp_path, home, ["always"])
    first = await s.decide("read_file", path="/etc/hosts")
    assert (first.outcome, first.reason, first.detail) == (
        "allow",
        "user_always",
        "outside_workspace",
    )
    (request,) = s.human.requests
    assert request.pattern == "/etc/*" and request.options == ["allow", "always", "deny"]
    hostname = await s.decide("read_file", path="/etc/hostname")
    assert (hostname.outcome, hostname.reason) == ("allow", "rule:approvals/main.yaml")
    shadow = await s.decide("read_file", path="/etc/shadow")
    assert (shadow.outcome, shadow.reason) == ("block", "secret_path")
    deeper = await s.decide("read_file", path="/etc/ssl/openssl.cnf")
    assert deeper.reason == "timeout"  # `/etc/*` is one directory; nobody answered this time
    assert len(s.human.requests) == 2


async def test_workspace_reads_stay_free(tmp_path: Path, home: Path) -> None:
    s = make(tmp_path, home)
    (s.ws / "src").mkdir()
    for tool, args in [
        ("read_file", {"path": "src/a.py"}),
        ("read_file", {"path": str(s.ws / "README.md")}),
        ("grep", {"pattern": "x"}),
        ("glob", {"pattern": "**/*.py", "path": "src"}),
        ("list_dir", {}),
    ]:
        assert (await s.decide(tool, **args)).reason == "not_required"
    assert s.human.requests == []


async def test_the_real_path_decides_for_reads(tmp_path: Path, home: Path) -> None:
    s = make(tmp_path, home, ["deny"])
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "notes.txt").write_text("private")
    (s.ws / "docs").symlink_to(outside)
    (s.ws / "key").symlink_to(home / ".ssh" / "id_rsa")
    through_link = await s.decide("read_file", path="docs/notes.txt")
    assert (through_link.reason, through_link.detail) == ("user_deny", "outside_workspace")
    assert (await s.decide("read_file", path="key")).reason == "secret_path"
    assert (await s.decide("grep", pattern="x", path="docs")).reason == "timeout"


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("list_dir", {"path": "~/.ssh"}),
        ("grep", {"pattern": "BEGIN", "path": "~/.ssh"}),
        ("glob", {"pattern": "*", "path": "~/.ssh"}),
        ("read_file", {"path": ".env"}),
        ("read_file", {"path": "config/.env.local"}),
        ("read_file", {"path": "/proc/self/environ"}),
        ("write_file", {"path": ".env", "content": "JARVIS_SECURITY__REQUIRE_APPROVAL_FOR=[]"}),
        ("edit_file", {"path": "~/.ssh/authorized_keys", "old_string": "a", "new_string": "b"}),
    ],
)
async def test_secret_locations_are_blocked_for_every_file_tool(
    tmp_path: Path, home: Path, tool: str, args: dict[str, Any]
) -> None:
    s = make(tmp_path, home, ["allow"], rules=f"rules:\n  - {{tool: {tool}, pattern: '**'}}\n")
    decision = await s.decide(tool, **args)
    assert (decision.outcome, decision.reason) == ("block", "secret_path")
    assert s.human.requests == []


async def test_jarvis_home_and_configured_secrets(tmp_path: Path, home: Path) -> None:
    s = make(tmp_path, home, secret_paths=["~/vault", "*.kdbx"])
    for tool, path in [
        ("read_file", str(s.data / "config.yaml")),
        ("write_file", str(s.data / "approvals.yaml")),
        ("write_file", str(s.data / "tools" / "evil.py")),
        ("read_file", "~/vault/bank.txt"),
        ("read_file", "db/passwords.kdbx"),
    ]:
        args: dict[str, Any] = (
            {"path": path, "content": "x"} if tool == "write_file" else {"path": path}
        )
        assert (await s.decide(tool, **args)).reason == "secret_path", path


async def test_a_write_rule_is_matched_on_the_real_path(tmp_path: Path, home: Path) -> None:
    s = make(
        tmp_path,
        home,
        ["deny", "deny", "deny"],
        rules="rules:\n  - {tool: write_file, pattern: 'src/app/*'}\n",
    )
    outside = tmp_path / "outside" / "deep"
    outside.mkdir(parents=True)
    (s.ws / "src" / "app").mkdir(parents=True)
    (s.ws / "src" / "app" / "link").symlink_to(outside)
    plain = await s.decide("write_file", path="src/app/main.py", content="x")
    assert plain.reason == "rule:approvals.yaml"
    dotdot = await s.decide("write_file", path="src/app/link/../x", content="x")
    assert dotdot.reason == "user_deny"  # lands in tmp/outside/x: asked, not ridden on the rule
    through = await s.decide("write_file", path="src/app/link/x", content="x")
    assert through.reason == "user_deny"
    assert [r.args[0].value for r in s.human.requests] == ["src/app/link/../x", "src/app/link/x"]


async def test_a_missing_directory_and_dotdot_do_not_hide_a_link(
    tmp_path: Path, home: Path
) -> None:
    """`nope/../out/x`: our tools fold `nope/..` and then follow `out`, a link leaving the
    workspace; the gate must see the real path (it once kept `ws/out/x`, inside)."""
    s = make(
        tmp_path,
        home,
        ["deny", "deny"],
        rules="rules:\n  - {tool: write_file, pattern: '**'}\n  - {tool: read_file, pattern: '**'}",
    )
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text("private")
    (s.ws / "out").symlink_to(outside)
    write = await s.decide("write_file", path="nope/../out/x", content="x")
    assert (write.reason, write.detail) == ("user_deny", "outside_workspace")
    read = await s.decide("read_file", path="nope/../out/notes.txt")
    assert (read.reason, read.detail) == ("user_deny", "outside_workspace")


async def test_writes_outside_ask_even_when_the_policy_would_not(
    tmp_path: Path, home: Path
) -> None:
    s = make(tmp_path, home, ["deny"], require_approval_for=[])
    assert (await s.decide("write_file", path="notes.txt", content="x")).reason == "not_required"
    outside = await s.decide("write_file", path=str(tmp_path / "x.txt"), content="x")
    assert (outside.reason, outside.detail) == ("user_deny", "outside_workspace")


async def test_web_fetch_asks_per_host(tmp_path: Path, home: Path) -> None:
    s = make(tmp_path, home, ["always", "deny"])
    first = await s.decide("web_fetch", url="https://docs.python.org/3/library/os.html")
    assert first.reason == "user_always" and s.human.requests[0].pattern == "docs.python.org"
    again = await s.decide("web_fetch", url="https://docs.python.org/3/tutorial/")
    assert again.reason == "rule:approvals/main.yaml"
    other = await s.decide("web_fetch", url="https://evil.example/?k=secret")
    assert other.reason == "user_deny" and s.human.requests[1].pattern == "evil.example"
    saved = (s.data / "approvals" / "main.yaml").read_text(encoding="utf-8")
    assert "pattern: docs.python.org" in saved


async def test_hand_written_host_rules(tmp_path: Path, home: Path) -> None:
    rules = (
        "rules:\n  - {tool: web_fetch, pattern: '*.python.org'}\n"
        "  - {tool: web_fetch, pattern: bad.python.org, action: deny}\n"
    )
    s = make(tmp_path, home, rules=rules)
    assert (await s.decide("web_fetch", url="https://docs.python.org/")).outcome == "allow"
    assert (await s.decide("web_fetch", url="https://bad.python.org/")).outcome == "block"
    assert (await s.decide("web_fetch", url="https://python.org.evil.example/")).reason == "timeout"


async def test_web_fetch_approval_can_be_turned_off(tmp_path: Path, home: Path) -> None:
    s = make(tmp_path, home, web_fetch_requires_approval=False)
    assert (await s.decide("web_fetch", url="https://example.com/")).reason == "not_required"


@pytest.mark.parametrize(
    "command",
    [
        "cat ~/.ssh/id_rsa",
        "cat .env",
        "cat ../home/.ssh/id_rsa",
        "cat key",  # a symlink in the workspace to the key
        "cd ~/.ssh && cat id_rsa",
        "cat -- ~/.aws/credentials",
        "cat /proc/self/environ",
        "grep -r BEGIN ~",
        "cat /etc/shadow",
        "cat ~/.ss*/id_rsa",  # the glob bash expands
        "cat ../home/.s?h/*",
        "cat .e*",
    ],
)
async def test_a_bash_rule_never_approves_a_line_naming_a_secret(
    tmp_path: Path, home: Path, command: str
) -> None:
    rules = "rules:\n" + "".join(
        f"  - {{tool: bash, pattern: {p}}}\n" for p in ("cat", "grep", "cd")
    )
    s = make(tmp_path, home, ["deny"], rules=rules)
    os.symlink(home / ".ssh" / "id_rsa", s.ws / "key")
    (s.ws / ".env").write_text("OPENAI_API_KEY=sk-live\n")
    decision = await s.decide("bash", command=command)
    assert (decision.reason, decision.detail) == ("user_deny", "secret_path")
    assert len(s.human.requests) == 1


async def test_a_bash_rule_still_approves_ordinary_lines(tmp_path: Path, home: Path) -> None:
    s = make(tmp_path, home, rules="rules:\n  - {tool: bash, pattern: cat}\n")
    (s.ws / "docs").mkdir()
    (s.ws / "docs" / "env.md").write_text("x")
    for command in (
        "cat README.md",
        "cat src/main.py docs/env.md",
        "cat /etc/hosts",
        "cat d*/*.md",
    ):
        assert (await s.decide("bash", command=command)).reason == "rule:approvals.yaml"


async def test_bash_naming_a_secret_asks_even_when_bash_needs_no_approval(
    tmp_path: Path, home: Path
) -> None:
    s = make(tmp_path, home, ["deny"], require_approval_for=[])
    assert (await s.decide("bash", command="ls")).reason == "not_required"
    assert (await s.decide("bash", command="cat ~/.ssh/id_rsa")).reason == "user_deny"


async def test_warnings_for_the_approval_request(tmp_path: Path, home: Path) -> None:
    s = make(tmp_path, home)

    def warnings(tool: str, **args: Any) -> list[str]:
        call = ToolCall(id="c", name=tool, arguments=args)
        return s.sandbox.boundary_warnings(TOOLS[tool], call)

    assert warnings("read_file", path="/etc/hosts") == ["outside_workspace"]
    assert warnings("bash", command="cat ~/.ssh/id_rsa") == ["secret_path"]
    assert warnings("bash", command="ls") == warnings("read_file", path="a.md") == []


async def test_dry_run_and_unattended(tmp_path: Path, home: Path) -> None:
    s = make(tmp_path, home)
    dry = await s.decide("read_file", dry_run=True, path="/etc/hosts")
    assert (dry.outcome, dry.detail) == ("ask", "/etc/*")
    s.sandbox.unattended = True
    assert (await s.decide("read_file", path="/etc/hosts")).reason == "approval_unavailable"
    assert (await s.decide("read_file", path="notes.md")).reason == "not_required"


async def test_a_deny_rule_applies_to_workspace_reads(tmp_path: Path, home: Path) -> None:
    s = make(
        tmp_path, home, rules="rules:\n  - {tool: read_file, pattern: 'private/**', action: deny}\n"
    )
    assert (await s.decide("read_file", path="private/diary.md")).outcome == "block"
    assert (await s.decide("read_file", path="public/readme.md")).reason == "not_required"


async def test_the_gate_tells_the_model_and_the_audit_records_it(
    tmp_path: Path, home: Path
) -> None:
    s = make(tmp_path, home)
    gate = Gate(s.sandbox, AuditLog(), "en")
    call = ToolCall(id="c", name="read_file", arguments={"path": "~/.ssh/id_rsa"})
    verdict = await gate.check(TOOLS["read_file"], call, ctx())
    assert verdict.refusal is not None and verdict.refusal.is_error
    text = verdict.refusal.content
    assert text.startswith("blocked:") and str(home / ".ssh/id_rsa") in text
    assert "no approval or rule can allow it" in text
    (record,) = await gate.audit.query()
    assert (record.outcome, record.reason) == ("block", "secret_path")
