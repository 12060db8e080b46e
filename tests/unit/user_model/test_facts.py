"""The user model's update rules and its file (issue 26 item 5)."""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path

import pytest

from jarvis.core.user_model import (
    Fact,
    Proposal,
    UserModelFileError,
    UserModelStore,
    apply_proposals,
    forget,
    pin,
    set_by_person,
    user_section,
)
from jarvis.core.user_model.extract import propose


def said(facts: list[Fact], text: str, now: int = 1) -> list[Fact]:
    out, _ = apply_proposals(facts, propose(text), text, now, f"t{now}")
    return out


def live(facts: list[Fact], field: str) -> list[str]:
    return [f.value for f in facts if f.field == field and f.status == "active"]


def test_a_stated_fact_is_active_with_its_evidence() -> None:
    facts = said([], "제 이름은 민준이에요. 저는 백엔드 개발자예요.")
    assert live(facts, "name") == ["민준"] and live(facts, "role") == ["백엔드 개발자"]
    name = next(f for f in facts if f.field == "name")
    assert (name.source, name.evidence, name.first_seen_ms) == (
        "stated",
        "제 이름은 민준이에요.",
        1,
    )


@pytest.mark.parametrize(
    "trap",
    [
        "만약 내 이름이 철수라면 어땠을까",
        "If my name is Bob, what would you call me?",
        "내 친구는 디자이너야",
        "My wife is a doctor",
        "팀장님이 나보고 데이터 과학자래",
        "I love rust lol",
        "Do I like rust?",
        'He said "I\'m a software engineer"',
    ],
)
def test_traps_never_become_facts(trap: str) -> None:
    assert [f for f in said([], trap) if f.status == "active"] == []


def test_a_model_proposal_still_goes_through_the_guard_and_must_be_grounded() -> None:
    text = "내 친구는 부산에 살아. 나는 서울 살아요."
    proposals = [
        Proposal("people", "친구", "내 친구는 부산에 살아."),  # third party
        Proposal("timezone", "Asia/Seoul", "나는 서울 살아요."),  # value not in the words
        Proposal("role", "CEO", "I am the CEO"),  # evidence not said this turn
        Proposal("salary", "lots", "나는 서울 살아요."),  # not a field
    ]
    facts, decisions = apply_proposals([], proposals, text, 1, "m")
    assert facts == []
    assert [d.reason for d in decisions] == [
        "third_party",
        "not_grounded",
        "not_grounded",
        "unknown_field",
    ]


def test_a_contradicting_value_retires_the_old_one_and_keeps_it() -> None:
    facts = said([], "저는 백엔드 개발자예요", now=1)
    facts = said(facts, "저는 이제 프론트엔드 개발자예요", now=2)
    assert live(facts, "role") == ["프론트엔드 개발자"]
    old = next(f for f in facts if f.value == "백엔드 개발자")
    assert (old.status, old.retired_reason, old.last_seen_ms) == ("retired", "contradicted", 2)


def test_many_valued_fields_add_and_a_repeat_is_seen_again() -> None:
    facts = said([], "I love rust", now=1)
    facts = said(facts, "I love cooking", now=2)
    facts = said(facts, "I love rust", now=3)
    assert sorted(live(facts, "interests")) == ["cooking", "rust"]
    rust = next(f for f in facts if f.value == "rust")
    assert (rust.first_seen_ms, rust.last_seen_ms, len(facts)) == (1, 3, 2)


def test_the_persons_edit_and_pins_survive_extraction() -> None:
    facts = said([], "My name is Ana", now=1)
    facts = set_by_person(facts, "name", "Anna", 2, "edit")
    facts = said(facts, "My name is Ana", now=3)  # extraction cannot undo the correction
    assert live(facts, "name") == ["Anna"]
    facts = said(facts, "I work as a data engineer", now=4)
    role = next(f for f in facts if f.field == "role")
    facts, hit = pin(facts, role.id)
    assert hit
    facts = said(facts, "I work as a plumber", now=5)
    assert live(facts, "role") == ["data engineer"]


def test_a_forgotten_fact_does_not_come_back() -> None:
    facts = said([], "I love rust", now=1)
    facts, hit = forget(facts, facts[0].id[:4], 2)
    assert hit and live(facts, "interests") == []
    facts = said(facts, "I love rust", now=3)
    assert live(facts, "interests") == [] and len(facts) == 1  # kept, retired, not revived
    facts = set_by_person(facts, "interests", "rust", 4, "edit")  # the person may say so
    assert live(facts, "interests") == ["rust"]


def test_the_user_section_is_bounded_pinned_first() -> None:
    facts: list[Fact] = []
    for i in range(30):
        facts = set_by_person(facts, "interests", f"topic {i}", i, f"f{i}")
    facts, _ = pin(facts, "f0")
    text = user_section(facts, "[사용자]", max_facts=5)
    lines = text.splitlines()
    assert lines[0] == "[사용자]" and len(lines) == 6 and lines[1] == "- interests: topic 0"
    assert user_section([], "[사용자]") == ""
    assert len(user_section(facts, "[사용자]", max_facts=50, max_chars=100)) <= 100


async def test_the_file_is_private_atomic_and_reread_after_an_edit(tmp_path: Path) -> None:
    path = tmp_path / "user_model.json"
    store = UserModelStore(path)
    await store.update("local", lambda f: (set_by_person(f, "name", "민준", 1, "a"), None))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = json.loads(path.read_text())
    data["people"]["local"][0]["value"] = "민준호"  # the person edits the file by hand
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1))
    path.chmod(0o644)
    assert [f.value for f in store.facts("local")] == ["민준호"]
    await store.update("local", lambda f: (set_by_person(f, "role", "PM", 2, "b"), None))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # private again after a write
    assert not list(tmp_path.glob(".user_model.json.*"))  # no temp file left


async def test_a_broken_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "user_model.json"
    path.write_text('{"version": 1, "people": {"local": [{"id": ')
    store = UserModelStore(path)
    assert store.facts("local") == []
    with pytest.raises(UserModelFileError):
        await store.update("local", lambda f: (set_by_person(f, "name", "x", 1, "a"), None))
    assert path.read_text() == '{"version": 1, "people": {"local": [{"id": '


async def test_concurrent_updates_lose_nothing(tmp_path: Path) -> None:
    store = UserModelStore(tmp_path / "user_model.json")

    async def add(i: int) -> None:
        await store.update(
            "local", lambda f: (set_by_person(f, "interests", f"t{i}", i, f"id{i}"), None)
        )

    await asyncio.gather(*(add(i) for i in range(20)))
    assert len(UserModelStore(tmp_path / "user_model.json").facts("local")) == 20
