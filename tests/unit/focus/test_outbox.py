"""The focus outbox's files (jarvis.app.focus.outbox): one file per change, in order; a file
is claimed by exactly one taker; what nobody claimed for a day is dropped by the next post."""

from __future__ import annotations

import os
from pathlib import Path

from jarvis.app.focus.outbox import STALE_SEC, claim, outbox, post


def test_a_change_is_claimed_once_and_in_order(tmp_path: Path) -> None:
    first = post(tmp_path, [("local", {"type": "focus_state", "state": "paused"})])
    second = post(tmp_path, [("local", {"type": "focus_state", "state": "waiting"})])
    assert first is not None and second is not None
    assert sorted(p.name for p in outbox(tmp_path).iterdir()) == [first.name, second.name]
    assert claim(first) == [{"user": "local", "event": {"type": "focus_state", "state": "paused"}}]
    assert claim(first) is None  # another taker finds it gone
    assert [p.name for p in outbox(tmp_path).iterdir()] == [second.name]
    assert post(tmp_path, []) is None  # nothing to tell: no file


def test_unclaimed_files_older_than_a_day_are_dropped_by_the_next_post(tmp_path: Path) -> None:
    old = post(tmp_path, [("local", {"type": "focus_state"})])
    assert old is not None
    stamp = old.stat().st_mtime - STALE_SEC - 60
    os.utime(old, (stamp, stamp))
    new = post(tmp_path, [("local", {"type": "focus_panel"})])
    assert new is not None
    assert [p.name for p in outbox(tmp_path).iterdir()] == [new.name]
