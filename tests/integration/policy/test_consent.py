"""Consent belongs to whoever gave it: ALWAYS rules per person × agent, shared rules for admins,
every rule change audited, a broken rule file fails closed, concurrent writers lose nothing."""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.core.approvals.audit import AuditLog
from jarvis.core.config import ApiKey, RoleSpec, SecuritySettings
from jarvis.core.policy.gate import rule_change_recorder
from jarvis.core.policy.rule_store import RuleFileError, RulePermissionError, RuleStore
from jarvis.core.policy.rules import Rule
from jarvis.core.policy.sandbox import Sandbox
from jarvis.core.tools.builtins import builtin_tools
from jarvis.model_layer import ToolCall
from tests.integration.gate.test_decide import FixedClock
from tests.support.hang import HANG_GUARD_SEC

TOOLS = {tool.name: tool for tool in builtin_tools()}
KEYS = [ApiKey(name="alice", key="a" * 20), ApiKey(name="bob", key="b" * 20)]  # type: ignore[arg-type]


def granted(pattern: str, by: str, tool: str = "bash") -> Rule:
    return Rule(tool=tool, pattern=pattern, granted_by=by, granted_at="2026-12-01T00:00:00Z")


def sandbox_for(home: Path, store: RuleStore | None = None, **security: object) -> Sandbox:
    return Sandbox(
        settings=SecuritySettings(**security),  # type: ignore[arg-type]
        rules=store or RuleStore(home),
        approvals=None,
        workspace=home,
        clock=FixedClock(),
    )


async def dry_run(sandbox: Sandbox, user: str, tool: str = "bash", **args: object) -> str:
    ctx = ToolCallContext("s1", "main", 1, asyncio.Event(), user_id=user)
    call = ToolCall(id="c", name=tool, arguments=dict(args))
    decision = await sandbox.decide(TOOLS[tool], call, ctx, dry_run=True)
    return f"{decision.outcome}:{decision.reason}"


async def test_one_persons_always_never_approves_for_another(tmp_path: Path) -> None:
    store = RuleStore(tmp_path)
    await store.add_rule("main", granted("git status", "alice"))
    sandbox = sandbox_for(tmp_path, store)
    assert await dry_run(sandbox, "alice", command="git status") == "allow:rule:approvals/main.yaml"
    assert await dry_run(sandbox, "bob", command="git status") == "ask:approval_required"


async def test_bobs_always_is_saved_although_alice_has_the_same_rule(tmp_path: Path) -> None:
    store = RuleStore(tmp_path)
    assert await store.add_rule("main", granted("git status", "alice"))
    assert await store.add_rule("main", granted("git status", "bob"))  # his own consent
    assert not await store.add_rule("main", granted("git status", "bob"))  # idempotent
    assert [r.granted_by for r in await store.rules_for("main")] == ["alice", "bob"]


async def test_hand_written_and_deny_rules_apply_to_everyone(tmp_path: Path) -> None:
    (tmp_path / "approvals").mkdir()
    (tmp_path / "approvals" / "main.yaml").write_text(
        "rules:\n  - {tool: bash, pattern: ls}\n"
        "  - {tool: bash, pattern: git push, action: deny, granted_by: alice}\n",
        encoding="utf-8",
    )
    sandbox = sandbox_for(tmp_path)
    assert await dry_run(sandbox, "bob", command="ls -la") == "allow:rule:approvals/main.yaml"
    assert (await dry_run(sandbox, "bob", command="git push")).startswith("block:rule:")


async def test_only_the_granter_or_an_admin_revokes(tmp_path: Path) -> None:
    changes = AuditLog()
    store = RuleStore(tmp_path, FixedClock(), rule_change_recorder(changes, FixedClock()))
    await store.add_rule("main", granted("git status", "alice"))
    with pytest.raises(RulePermissionError):
        await store.revoke("main", "bash", "git status", user="bob", admin=False)
    assert await store.revoke("main", "bash", "git status", user="alice", admin=False) == 1
    await store.add_rule("main", granted("git log", "alice"))
    assert await store.revoke("main", "bash", "git log", user="root", admin=True) == 1
    (record, again) = await changes.query()
    assert (record.outcome, record.user, record.agent) == ("rule_revoked", "alice", "main")
    assert record.rule == "approvals/main.yaml: allow bash git status"
    assert (again.user, again.rule) == ("root", "approvals/main.yaml: allow bash git log")


async def test_the_shared_file_is_for_admins(tmp_path: Path) -> None:
    (tmp_path / "approvals.yaml").write_text("rules:\n  - {tool: bash, pattern: ls}\n")
    store = RuleStore(tmp_path)
    with pytest.raises(RulePermissionError):
        await store.revoke("main", "bash", "ls", shared=True, user="bob", admin=False)
    assert await store.revoke("main", "bash", "ls", shared=True, user="root", admin=True) == 1


def test_admin_is_the_local_person_or_a_role() -> None:
    local = sandbox_for(Path("/nonexistent"))
    assert local.is_admin("local")
    keyed = sandbox_for(
        Path("/nonexistent"),
        api_keys=KEYS,
        roles={"user": RoleSpec(), "admin": RoleSpec(admin=True)},
        user_roles={"alice": "admin"},
    )
    assert keyed.is_admin("alice") and not keyed.is_admin("bob")


async def test_hand_edits_are_audited_once(tmp_path: Path) -> None:
    changes = AuditLog()
    shared = tmp_path / "approvals.yaml"
    shared.write_text("rules:\n  - {tool: bash, pattern: ls}\n")
    store = RuleStore(tmp_path, FixedClock(), rule_change_recorder(changes, FixedClock()))
    await store.rules_for("main")  # the first read is not an edit
    assert await changes.query() == []
    replace(shared, "rules:\n  - {tool: bash, pattern: pwd}\n")
    await store.rules_for("main")
    await store.rules_for("main")
    rows = [(r.outcome, r.rule, r.user) for r in await changes.query()]
    assert rows == [
        ("rule_removed", "approvals.yaml: allow bash ls", "file"),
        ("rule_added", "approvals.yaml: allow bash pwd", "file"),
    ]
    await store.add_rule("main", granted("git status", "local"))  # our own write: no edit line
    await store.rules_for("main")
    assert len(await changes.query()) == 2
    replace(shared, "rules: [oops\n")
    await store.rules_for("main")
    assert (await changes.query())[-1].outcome == "rule_file_error"


async def test_a_shared_file_that_never_loaded_makes_every_call_ask(tmp_path: Path) -> None:
    (tmp_path / "approvals.yaml").write_text("rules:\n  - {tool: bash, pattern: rm, action: den")
    (tmp_path / "approvals").mkdir()
    (tmp_path / "approvals" / "main.yaml").write_text("rules:\n  - {tool: bash, pattern: rm}\n")
    sandbox = sandbox_for(tmp_path)
    assert await dry_run(sandbox, "local", command="rm -r notes") == "ask:approval_required"
    assert await dry_run(sandbox, "local", "read_file", path="x") == "ask:approval_required"
    replace(tmp_path / "approvals.yaml", "rules:\n  - {tool: bash, pattern: rm, action: deny}\n")
    assert (await dry_run(sandbox, "local", command="rm -r notes")).startswith("block:rule:")
    assert await dry_run(sandbox, "local", "read_file", path="x") == "allow:not_required"


async def test_a_shared_file_broken_later_keeps_its_last_good_rules(tmp_path: Path) -> None:
    shared = tmp_path / "approvals.yaml"
    shared.write_text("rules:\n  - {tool: bash, pattern: rm, action: deny}\n")
    (tmp_path / "approvals").mkdir()
    (tmp_path / "approvals" / "main.yaml").write_text("rules:\n  - {tool: bash, pattern: rm}\n")
    store = RuleStore(tmp_path)
    sandbox = sandbox_for(tmp_path, store)
    assert (await dry_run(sandbox, "local", command="rm x")).startswith("block:rule:")
    replace(shared, "rules: [ {tool: bash")
    assert (await dry_run(sandbox, "local", command="rm x")).startswith("block:rule:")
    assert store.errors() and "approvals.yaml" in store.errors()[0]
    with pytest.raises(RuleFileError):
        await store.revoke("main", "bash", "rm", shared=True)


async def test_a_rewritten_file_keeps_its_mode(tmp_path: Path) -> None:
    store = RuleStore(tmp_path)
    await store.add_rule("main", granted("ls", "local"))
    path = tmp_path / "approvals" / "main.yaml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # new rule files are private
    path.chmod(0o640)
    await store.add_rule("main", granted("pwd", "local"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


_WRITER = """
import asyncio, sys
from pathlib import Path
from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.rules import Rule

async def main(home: str, name: str, count: int) -> None:
    store = RuleStore(Path(home))
    sys.stdout.write("ready\\n"); sys.stdout.flush()
    sys.stdin.readline()  # both writers start together
    for i in range(count):
        await store.add_rule("main", Rule(tool="bash", pattern=f"{name}{i}", granted_by="local"))
        if i % 10 == 9:
            await store.revoke("main", "bash", f"{name}{i}")

asyncio.run(main(*sys.argv[1:3], int(sys.argv[3])))
"""


def test_two_processes_writing_one_rule_file_lose_nothing(tmp_path: Path) -> None:
    count = 50
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(tmp_path), name, str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    for writer in writers:
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    for writer in writers:
        assert writer.wait(HANG_GUARD_SEC) == 0
    rules = asyncio.run(RuleStore(tmp_path).rules_for("main"))
    kept = sorted(rule.pattern for rule in rules)
    expected = sorted(f"{n}{i}" for n in "ab" for i in range(count) if i % 10 != 9)
    assert kept == expected  # every ALWAYS kept, every revoke stays revoked


def replace(path: Path, text: str) -> None:
    """An external edit the stat check always sees (new inode, like an editor's save)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
