"""Who says a source's entry, and the speaking-first gate on an immediate batch (pure tables:
core/sources/route.py); the seen file keeps each batch's decision and its held digest."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from jarvis.core.proactive.gate import Policy, Situation
from jarvis.core.sources.entries import Entry
from jarvis.core.sources.route import gate_entries, held_due_ms, owner, quiet_end_ms
from jarvis.core.sources.seen import Decision, SeenStore


@pytest.mark.parametrize(
    ("notify", "to_say", "speaks_first", "expected"),
    [
        ("digest", True, False, "digest"),
        ("digest", True, True, "digest"),  # a digest's entry is never also a spoken thought
        ("immediate", True, False, "immediate"),
        ("immediate", True, True, "immediate"),  # through the gate, still one path
        ("off", True, True, "speaker"),  # no notification: speaking first may bring it up
        ("off", True, False, "none"),
        ("digest", False, True, "none"),  # backlog, `check`, unmatched, over quota, update
        ("immediate", False, True, "none"),
        ("off", False, True, "none"),
    ],
)
def test_one_owner_per_entry(notify: str, to_say: bool, speaks_first: bool, expected: str) -> None:
    assert owner(notify, to_say=to_say, speaks_first=speaks_first) == expected  # type: ignore[arg-type]


AFTERNOON = Situation(local_hour=14)
TEXTS = ["📰 [news] a", "📰 [news] b", "📰 [news] c"]
RAISED = Policy(thresholds={**Policy().thresholds, "news": 1.0})  # the learner raised it


@pytest.mark.parametrize(
    ("situation", "policy", "spoken", "reasons"),
    [
        (AFTERNOON, Policy(), [0], ["speak", "too_soon", "too_soon"]),
        (Situation(local_hour=23), Policy(), [], ["quiet_hours"] * 3),
        (Situation(local_hour=14, turn_running=True), Policy(), [], ["turn_running"] * 3),
        (Situation(local_hour=14, approval_pending=True), Policy(), [], ["approval_pending"] * 3),
        (
            Situation(local_hour=14, muted_topics=frozenset({"news"})),
            Policy(),
            [],
            ["muted_topic"] * 3,
        ),
        (Situation(local_hour=14, today_count=3), Policy(), [], ["daily_max"] * 3),
        (Situation(local_hour=14, minutes_since_last=10), Policy(), [], ["too_soon"] * 3),
        (AFTERNOON, RAISED, [], ["below_threshold"] * 3),
        # said today about this source already: not a `not_new` veto (each entry is new)
        (Situation(local_hour=14, recent_topics=frozenset({"news"})), Policy(), [0], None),
        # no gap asked for: each entry said, up to today's count
        (Situation(local_hour=14, today_count=1), Policy(min_gap_min=0), [0, 1], None),
    ],
)
def test_the_gate_on_an_immediate_batch(
    situation: Situation, policy: Policy, spoken: list[int], reasons: list[str] | None
) -> None:
    gated = gate_entries("news", TEXTS, situation, policy)
    assert gated.spoken == spoken
    assert gated.held == [i for i in range(3) if i not in spoken]
    if reasons is not None:
        assert [v.reason for v in gated.verdicts] == reasons


def test_a_held_digest_waits_for_the_next_period_and_the_end_of_the_quiet_hours() -> None:
    assert held_due_ms(60_000, 60_000, None) == 120_000
    assert held_due_ms(60_000, 60_000, 5_000_000) == 5_000_000
    assert held_due_ms(60_000, 3_600_000, 100_000) == 3_660_000
    seoul = ZoneInfo("Asia/Seoul")
    night = datetime(2026, 12, 5, 23, 30, tzinfo=seoul)
    assert quiet_end_ms(night, 8) == int(datetime(2026, 12, 6, 8, tzinfo=seoul).timestamp() * 1000)
    early = datetime(2026, 12, 5, 6, 0, tzinfo=seoul)
    assert quiet_end_ms(early, 8) == int(datetime(2026, 12, 5, 8, tzinfo=seoul).timestamp() * 1000)


def test_a_batch_decision_and_its_held_digest_are_one_line(tmp_path: Path) -> None:
    store = SeenStore(tmp_path)
    entries = [Entry(f"g{i}", f"https://n.example/{i}", f"Story {i}", "", "") for i in range(3)]
    batch = "extsrc-note:news:60000:now"
    store.append("news", entries, 60_000, [batch] * 3, ["immediate"] * 3)
    assert store.decision(batch) is None
    decided = Decision([0], "extsrc-note:news:60000:held", 120_000, gate=True)
    store.decide("news", batch, entries[1:], decided, 61_000)
    assert store.decision(batch) == decided
    notes = store.notes()
    assert [e.title for e in notes[batch].entries] == ["Story 0", "Story 1", "Story 2"]
    held = notes["extsrc-note:news:60000:held"]
    assert (held.source, held.due_ms) == ("news", 120_000)
    assert [e.title for e in held.entries] == ["Story 1", "Story 2"]
    # a decision torn mid-line is no decision and no held digest (the batch decides again)
    text = store.path.read_text()
    store.path.write_text(text[: text.rindex('"due_ms"')])
    assert store.decision(batch) is None and "extsrc-note:news:60000:held" not in store.notes()
    assert len(store.load().content) == 9  # the entries stay seen
