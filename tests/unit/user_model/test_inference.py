"""Inferred facts (pure rules): off by default, the same guard, tentative until seen in two
sessions, confirmed at once by the person stating it, never retiring what is held."""

from __future__ import annotations

from jarvis.core.user_model import Fact, apply_proposals, user_section
from jarvis.core.user_model.facts import Proposal

GO = "I've been coding in Go all week."


def infer(facts: list[Fact], text: str, value: str, session: str, field: str = "expertise"):
    proposal = Proposal(field, value, text, inferred=True)
    return apply_proposals(
        facts, [proposal], text, 1, f"id-{session}", session_id=session, infer=True
    )


def test_off_by_default() -> None:
    proposal = Proposal("expertise", "Go", GO, inferred=True)
    facts, [decision] = apply_proposals([], [proposal], GO, 1, "x", session_id="s1")
    assert facts == [] and decision.reason == "inference_off"


def test_tentative_until_a_second_session_and_never_in_the_section() -> None:
    facts, [first] = infer([], GO, "Go", "s1")
    assert first.reason == "inferred" and facts[0].status == "tentative"
    assert user_section(facts, "[user]") == ""  # the model sees active facts only
    facts, [same] = infer(facts, GO, "Go", "s1")
    assert same.reason == "seen_again" and facts[0].status == "tentative"  # same session
    facts, [second] = infer(facts, GO, "Go", "s2")
    assert second.reason == "confirmed" and facts[0].status == "active"
    assert facts[0].source == "inferred" and facts[0].sessions == ("s1", "s2")


def test_stating_it_confirms_at_once() -> None:
    facts, _ = infer([], GO, "Go", "s1")
    stated = Proposal("expertise", "Go", "I'm an expert in Go.")
    facts, [decision] = apply_proposals(facts, [stated], "I'm an expert in Go.", 2, "y")
    assert decision.reason == "confirmed"
    assert (facts[0].source, facts[0].status) == ("stated", "active")


def test_the_guard_still_applies() -> None:
    text = "내 동생은 자바로 개발하고 있어"
    facts, [decision] = infer([], text, "자바", "s1")
    assert facts == [] and decision.reason == "third_party"


def test_an_inference_never_retires_a_held_fact() -> None:
    said = "My name is Minjun."
    facts, _ = apply_proposals([], [Proposal("name", "Minjun", said)], said, 1, "n")
    guess = "I've been signing my mails as Min."
    facts, [decision] = infer(facts, guess, "Min", "s2", field="name")
    assert decision.reason == "held" and [f.value for f in facts] == ["Minjun"]
