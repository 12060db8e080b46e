"""Owner pre-approval: fingerprints and a grant's validity (table tests, seed 002)."""

from __future__ import annotations

import pytest

from jarvis.common.i18n import t
from jarvis.core.scheduler.grants import (
    REASON_KEYS,
    Basis,
    Grant,
    approval_policy_fingerprint,
    definition_fingerprint,
    may_grant,
    missing_grants,
    void_reason,
)

BASE = definition_fingerprint("schedule", "요약해 줘", {"when": "0 9 * * *", "agent": "main"})


@pytest.mark.parametrize(
    ("prompt", "settings", "steps", "same"),
    [
        ("요약해 줘", {"when": "0 9 * * *", "agent": "main"}, (), True),
        ("  요약해 줘\n", {"agent": "main", "when": "0 9 * * *"}, (), True),  # key order, spaces
        ("요약해 줘!", {"when": "0 9 * * *", "agent": "main"}, (), False),  # prompt
        ("요약해 줘", {"when": "0 10 * * *", "agent": "main"}, (), False),  # settings
        ("요약해 줘", {"when": "0 9 * * *", "agent": "main"}, ("a", "b"), False),  # steps
    ],
)
def test_definition_fingerprint(
    prompt: str, settings: dict[str, str], steps: tuple[str, ...], same: bool
) -> None:
    assert (definition_fingerprint("schedule", prompt, settings, steps) == BASE) is same


def test_step_order_counts() -> None:
    a = definition_fingerprint("goal", "g", {}, ("search", "write"))
    b = definition_fingerprint("goal", "g", {}, ("write", "search"))
    assert a != b


POLICY = approval_policy_fingerprint("bash", True, ["sudo"], [], [])


@pytest.mark.parametrize(
    ("changed", "expected"),
    [
        ({}, None),
        (
            {"policy_fp": approval_policy_fingerprint("bash", True, ["sudo", "rm"], [], [])},
            "policy",
        ),
        (
            {"policy_fp": approval_policy_fingerprint("bash", True, ["sudo"], ["bash"], [])},
            "policy",
        ),
        ({"definition_fp": "other"}, "definition"),
        ({"owner": "bob"}, "owner"),
        # Several changes: the seed's order (policy, definition, owner) names the first.
        ({"owner": "bob", "definition_fp": "other"}, "definition"),
        ({"owner": "bob", "policy_fp": "x"}, "policy"),
    ],
)
def test_void_reason(changed: dict[str, str], expected: str | None) -> None:
    grant = Grant("schedule:s1", "bash", "alice", BASE, POLICY, 1)
    now = {"owner": "alice", "definition_fp": BASE, "policy_fp": POLICY, **changed}
    assert void_reason(grant, Basis(**now)) == expected


def test_reason_lines_are_the_seeds() -> None:
    assert t(REASON_KEYS["policy"], "ko") == "권한 설정이 바뀌어 이전 승인 만료"
    assert t(REASON_KEYS["owner"], "ko") == "소유자가 바뀌어 이전 승인 만료"
    assert t(REASON_KEYS["definition"], "ko").endswith("내용이 바뀌어 이전 승인 만료")


@pytest.mark.parametrize(("who", "allowed"), [("alice", True), ("bob", False), ("", False)])
def test_only_the_owner_grants(who: str, allowed: bool) -> None:
    assert may_grant(who, "alice") is allowed


def test_missing_grants() -> None:
    basis = Basis("alice", BASE, POLICY)
    grant = Grant("schedule:s1", "bash", "alice", BASE, POLICY, 1)
    assert missing_grants(["bash"], {"bash": grant}, {"bash": basis}) == []
    assert missing_grants(
        ["bash", "write_file"], {"bash": grant}, {"bash": basis, "write_file": basis}
    ) == ["write_file"]
    moved = Basis("bob", BASE, POLICY)
    assert missing_grants(["bash"], {"bash": grant}, {"bash": moved}) == ["bash"]
