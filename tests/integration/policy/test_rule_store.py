"""Rule files on disk: comments survive, ALWAYS is idempotent, edits apply on the next call."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from jarvis.core.policy.rule_store import RuleFileError, RuleStore
from jarvis.core.policy.rules import Rule, RuleSet, match_shell_rules
from jarvis.core.policy.shell import analyze_shell

SHARED_TEXT = """\
# Shared rules, edited by hand.
rules:
  # read-only git is fine everywhere
  - {tool: bash, pattern: git status}   # the classic
  # docs may change
  - {tool: write_file, pattern: "docs/*"}
"""

AGENT_TEXT = """\
# main agent
rules:
  # keep uv
  - {tool: bash, pattern: uv run}
  # and ls
  - {tool: bash, pattern: ls}
  - tool: bash
    # a block-style rule with its own comment
    pattern: make test
  # trailing note
"""


class FixedClock:
    def __init__(self, now_ms: int = 1_767_225_600_000) -> None:
        self.now = now_ms

    def now_ms(self) -> int:
        return self.now


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "approvals").mkdir()
    return tmp_path


def write(path: Path, text: str) -> None:
    """An external edit: always visible to the stat check, even within one mtime tick."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 1_000_000, before + 1_000_000))


def patterns(rules: RuleSet) -> list[str]:
    return [rule.pattern for rule in rules]


async def test_reads_shared_then_agent_rules_with_origins(home: Path) -> None:
    write(home / "approvals.yaml", SHARED_TEXT)
    write(home / "approvals" / "main.yaml", AGENT_TEXT)
    rules = await RuleStore(home).rules_for("main")
    assert patterns(rules) == ["git status", "docs/*", "uv run", "ls", "make test"]
    assert [r.origin for r in rules][1:3] == ["approvals.yaml", "approvals/main.yaml"]


async def test_agent_rules_stay_with_their_agent(home: Path) -> None:
    store = RuleStore(home)
    await store.add_rule("karen", Rule(tool="bash", pattern="rm -rf build"))
    assert patterns(await store.rules_for("karen")) == ["rm -rf build"]
    assert patterns(await store.rules_for("jarvis")) == []


async def test_always_keeps_comments_and_layout(home: Path) -> None:
    agent = home / "approvals" / "main.yaml"
    write(agent, AGENT_TEXT)
    store = RuleStore(home)
    rule = Rule(
        tool="bash",
        pattern="git diff",
        granted_by="alice",
        granted_at="2026-01-01T00:00:00Z",
        session_id="s1",
        fingerprint="fp1",
    )
    assert await store.add_rule("main", rule) is True
    text = agent.read_text(encoding="utf-8")
    assert text.startswith(AGENT_TEXT)
    added = text.removeprefix(AGENT_TEXT)
    assert added.startswith("  - {tool: bash, pattern: git diff, granted_by: alice, ")
    assert added.count("\n") == 1  # one rule, one line
    saved = (await store.rules_for("main")).rules[-1]
    assert saved.model_dump() == rule.model_dump()
    assert saved.origin == "approvals/main.yaml"


async def test_always_creates_the_agent_file(home: Path) -> None:
    store = RuleStore(home)
    assert await store.add_rule("main", Rule(tool="write_file", pattern="src/app/*"))
    assert (home / "approvals" / "main.yaml").read_text(encoding="utf-8") == (
        "rules:\n  - {tool: write_file, pattern: src/app/*}\n"
    )


async def test_empty_flow_list_becomes_editable_lines(home: Path) -> None:
    agent = home / "approvals" / "main.yaml"
    write(agent, "rules: []  # nothing yet\n")
    await RuleStore(home).add_rule("main", Rule(tool="bash", pattern="ls"))
    assert "- {tool: bash, pattern: ls}" in agent.read_text(encoding="utf-8")


async def test_always_for_a_shared_rule_writes_nothing(home: Path) -> None:
    shared = home / "approvals.yaml"
    write(shared, SHARED_TEXT)
    before = shared.read_bytes()
    store = RuleStore(home)
    assert await store.add_rule("main", Rule(tool="bash", pattern="git  'status'")) is False
    assert await store.add_rule("main", Rule(tool="write_file", pattern="./docs/*")) is False
    assert shared.read_bytes() == before
    assert not (home / "approvals" / "main.yaml").exists()


async def test_always_twice_writes_once(home: Path) -> None:
    store = RuleStore(home)
    assert await store.add_rule("main", Rule(tool="bash", pattern="ls", fingerprint="fp"))
    agent = home / "approvals" / "main.yaml"
    before = agent.read_bytes()
    assert not await store.add_rule("main", Rule(tool="bash", pattern="ls", fingerprint="fp"))
    assert agent.read_bytes() == before


@pytest.mark.parametrize(
    "existing",
    [
        "{tool: bash, pattern: ls, expires_at: '2025-01-01T00:00:00Z'}",
        "{tool: bash, pattern: ls, fingerprint: old}",
        "{tool: bash, pattern: ls, action: deny}",
    ],
)
async def test_always_writes_when_the_equivalent_no_longer_applies(
    home: Path, existing: str
) -> None:
    write(home / "approvals" / "main.yaml", f"rules:\n  - {existing}\n")
    store = RuleStore(home, clock=FixedClock())
    assert await store.add_rule("main", Rule(tool="bash", pattern="ls", fingerprint="new"))
    assert len(await store.rules_for("main")) == 2


async def test_external_edit_applies_on_the_next_call(home: Path) -> None:
    agent = home / "approvals" / "main.yaml"
    write(agent, AGENT_TEXT)
    store = RuleStore(home)
    first = await store.rules_for("main")
    assert (await store.rules_for("main")) is first  # unchanged files cost a stat, not a parse
    write(agent, AGENT_TEXT.replace("pattern: ls}", "pattern: ls -la}"))
    assert "ls -la" in patterns(await store.rules_for("main"))


async def test_deleting_a_rule_or_the_file_applies_on_the_next_call(home: Path) -> None:
    shared = home / "approvals.yaml"
    write(shared, SHARED_TEXT)
    store = RuleStore(home)
    command = analyze_shell("git status --short")

    async def outcome() -> str:
        rules = await store.rules_for("main")
        return match_shell_rules(command, rules, now_ms=0, fingerprint=None).outcome

    assert await outcome() == "allow"
    classic = "  - {tool: bash, pattern: git status}   # the classic\n"
    write(shared, SHARED_TEXT.replace(classic, ""))
    assert await outcome() == "none"
    write(shared, SHARED_TEXT)
    assert await outcome() == "allow"
    shared.unlink()
    assert await outcome() == "none"
    assert store.errors() == []


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        ("rules:\n  - {tool: bash, pattern: ls\n", "approvals.yaml"),
        ("rules:\n  - {tool: bash, patern: ls}\n", "patern"),
        ('rules:\n  - {tool: bash, pattern: ""}\n', "rule 1"),
        ("rule:\n  - {tool: bash, pattern: ls}\n", "one key"),
        ("rules: ls\n", "list"),
        ("rules:\n  - ls\n", "mapping"),
        ("- {tool: bash, pattern: ls}\n", "mapping"),
    ],
)
async def test_broken_file_keeps_last_good_rules_and_reports(
    home: Path, broken: str, message: str, caplog: pytest.LogCaptureFixture
) -> None:
    shared = home / "approvals.yaml"
    write(shared, SHARED_TEXT)
    store = RuleStore(home)
    good = patterns(await store.rules_for("main"))
    write(shared, broken)
    with caplog.at_level(logging.ERROR):
        for _ in range(3):
            assert patterns(await store.rules_for("main")) == good
    assert len([r for r in caplog.records if "rule file" in r.getMessage()]) == 1
    errors = store.errors()
    assert len(errors) == 1 and errors[0].startswith("approvals.yaml") and message in errors[0]
    write(shared, SHARED_TEXT)
    await store.rules_for("main")
    assert store.errors() == []


async def test_broken_agent_file_is_never_overwritten(home: Path) -> None:
    agent = home / "approvals" / "main.yaml"
    write(agent, "rules:\n  - {tool: bash, pattern: ls\n# my notes\n")
    before = agent.read_bytes()
    store = RuleStore(home)
    with pytest.raises(RuleFileError):
        await store.add_rule("main", Rule(tool="bash", pattern="pwd"))
    with pytest.raises(RuleFileError):
        await store.revoke("main", "bash", "ls")
    assert agent.read_bytes() == before


async def test_crash_during_write_leaves_the_old_file(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = home / "approvals" / "main.yaml"
    write(agent, AGENT_TEXT)
    store = RuleStore(home)
    assert len(await store.rules_for("main")) == 3

    def crash(src: object, dst: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk gone"):
        await store.add_rule("main", Rule(tool="bash", pattern="pwd"))
    monkeypatch.undo()
    assert agent.read_text(encoding="utf-8") == AGENT_TEXT
    assert sorted(p.name for p in agent.parent.iterdir()) == ["main.yaml"]  # no temp file left
    assert patterns(await store.rules_for("main")) == ["uv run", "ls", "make test"]
    assert store.errors() == []


async def test_revoke_removes_only_that_rule_and_keeps_other_comments(home: Path) -> None:
    agent = home / "approvals" / "main.yaml"
    write(agent, AGENT_TEXT)
    store = RuleStore(home)
    assert await store.revoke("main", "bash", "uv  run") == 1
    assert agent.read_text(encoding="utf-8") == AGENT_TEXT.replace(
        "  - {tool: bash, pattern: uv run}\n", ""
    )
    assert patterns(await store.rules_for("main")) == ["ls", "make test"]


async def test_revoke_a_block_style_rule(home: Path) -> None:
    agent = home / "approvals" / "main.yaml"
    write(agent, AGENT_TEXT)
    assert await RuleStore(home).revoke("main", "bash", "make test") == 1
    text = agent.read_text(encoding="utf-8")
    assert "make test" not in text and "a block-style rule" not in text
    assert "# and ls\n" in text and "# trailing note\n" in text


async def test_revoke_from_a_flow_style_list_falls_back_to_a_structural_delete(home: Path) -> None:
    agent = home / "approvals" / "main.yaml"
    write(agent, "rules: [{tool: bash, pattern: ls}, {tool: bash, pattern: pwd}]\n")
    store = RuleStore(home)
    assert await store.revoke("main", "bash", "ls") == 1
    assert patterns(await store.rules_for("main")) == ["pwd"]


async def test_revoke_from_the_shared_file(home: Path) -> None:
    shared = home / "approvals.yaml"
    write(shared, SHARED_TEXT)
    store = RuleStore(home)
    assert await store.revoke("main", "write_file", "docs/*") == 0  # not in the agent file
    assert await store.revoke("main", "write_file", "docs/*", shared=True) == 1
    text = shared.read_text(encoding="utf-8")
    assert "docs/*" not in text and "# the classic" in text


async def test_revoke_nothing_writes_nothing(home: Path) -> None:
    agent = home / "approvals" / "main.yaml"
    write(agent, AGENT_TEXT)
    before = agent.stat().st_mtime_ns
    assert await RuleStore(home).revoke("main", "bash", "git push") == 0
    assert agent.stat().st_mtime_ns == before


async def test_list_all_groups_by_origin(home: Path) -> None:
    write(home / "approvals.yaml", SHARED_TEXT)
    write(home / "approvals" / "main.yaml", AGENT_TEXT)
    write(home / "approvals" / "Not An Agent.yaml", AGENT_TEXT)
    found = await RuleStore(home).list_all()
    assert list(found) == ["approvals.yaml", "approvals/main.yaml"]
    assert [r.pattern for r in found["approvals/main.yaml"]] == ["uv run", "ls", "make test"]


async def test_unquoted_timestamps_are_read_as_text(home: Path) -> None:
    write(
        home / "approvals" / "main.yaml",
        "rules:\n  - {tool: bash, pattern: ls, granted_at: 2026-01-01T00:00:00Z}\n",
    )
    (rule,) = await RuleStore(home).rules_for("main")
    assert rule.granted_at is not None and rule.granted_at.startswith("2026-01-01T00:00:00")


@pytest.mark.parametrize("agent_id", ["../etc", "Main", "", "a/b", "a" * 65, "-x", "a.b", "ä"])
async def test_bad_agent_ids_are_rejected(home: Path, agent_id: str) -> None:
    store = RuleStore(home)
    with pytest.raises(ValueError, match="agent id"):
        await store.rules_for(agent_id)
    with pytest.raises(ValueError, match="agent id"):
        await store.add_rule(agent_id, Rule(tool="bash", pattern="ls"))
    with pytest.raises(ValueError, match="agent id"):
        await store.revoke(agent_id, "bash", "ls")
    assert list(home.rglob("*")) == [home / "approvals"]
