"""Do it ahead: the definition file's rules and when its work starts (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from jarvis.core.scheduler.ahead import Ahead, in_window, load_aheads

DUE = datetime(2026, 12, 3, 0, 0, tzinfo=UTC)
LEAD = timedelta(minutes=30)


@pytest.mark.parametrize(
    ("minutes_to_due", "starts"),
    [(31, False), (30, True), (1, True), (0, False), (-5, False)],  # late work is not ahead
)
def test_work_starts_inside_the_lead_time_only(minutes_to_due: int, starts: bool) -> None:
    assert in_window(DUE, LEAD, DUE - timedelta(minutes=minutes_to_due)) is starts


def test_the_target_is_a_loop_or_a_schedule() -> None:
    ok = Ahead.model_validate({"for": "loop:abc", "prompt": "초안"})
    assert (ok.target_kind, ok.target_ref, ok.key) == ("loop", "abc", "ahead:")
    with pytest.raises(ValidationError):
        Ahead.model_validate({"for": "goal:x", "prompt": "초안"})


def test_what_the_owner_agreed_to_is_fingerprinted() -> None:
    base = Ahead.model_validate({"id": "p", "for": "schedule:brief", "prompt": "모아 둬"})
    same = base.model_copy(update={"enabled": False})
    assert same.fingerprint() == base.fingerprint()  # switching it off is not a new agreement
    for change in ({"prompt": "지워 둬"}, {"target": "schedule:other"}, {"minutes_before": 5},
                   {"tools": ["bash"]}, {"agent": "karen"}):  # fmt: skip
        assert base.model_copy(update=change).fingerprint() != base.fingerprint()


def test_broken_files_are_listed_with_why(tmp_path: Path) -> None:
    folder = tmp_path / "ahead"
    folder.mkdir()
    (folder / "good.yaml").write_text("for: loop:abc\nprompt: 초안\n", encoding="utf-8")
    (folder / "bad.yaml").write_text("for: nowhere\nprompt: x\n", encoding="utf-8")
    found, errors = load_aheads(tmp_path)
    assert [a.id for a in found] == ["good"] and list(errors) == ["bad.yaml"]
