"""Speaking first's event triggers, wired on real files with the scripted model: a goal that
finished, a Focus step that finished, a new item from a source — each one pass through the same
fingerprint, budget and vetoes, taken once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jarvis.app.proactive.speaker import ProactiveSpeaker
from jarvis.app.unattended.notify import ProactiveHub
from jarvis.core.focus.state import FocusStep, FocusTask
from jarvis.core.focus.store import FocusStore
from jarvis.core.scheduler.definitions import Goal, GoalLogEntry, save_goal
from jarvis.core.sources.definition import Source, write_source
from jarvis.core.sources.entries import Entry
from jarvis.core.sources.seen import SeenStore
from tests.integration.thinking.test_speaking_first import (
    HIGH,
    WEAK,
    Model,
    afternoon,
    reflection,
    setup,
)


def finish_goal(home: Path, at_ms: int, goal_id: str = "report") -> None:
    goal = Goal(id=goal_id, objective="분기 보고서 초안 쓰기", status="done", detail="초안 완성")
    goal.log = [GoalLogEntry(ts_ms=at_ms, turn=1, text="[DONE] 초안을 docs/q3.md 에 썼다")]
    save_goal(home, goal)


def finish_step(home: Path, at_ms: int) -> None:
    steps = [
        FocusStep(title="자료 모으기", status="done", finished_ms=at_ms),
        FocusStep(title="비교표 만들기"),
    ]
    task = FocusTask(id="laptops", objective="노트북 세 대 비교", status="waiting", steps=steps)
    FocusStore(home).create(task)


def new_item(home: Path, at_ms: int) -> None:
    # notify: off with speaking first on: the entry is speaking first's to mention (route.py)
    source = Source(id="rust-blog", url="https://blog.rust-lang.org/feed.xml", notify="off")
    write_source(home, source)
    entry = Entry("1", "https://blog.rust-lang.org/1.90", "Rust 1.90 released", "", "notes")
    SeenStore(home).append("rust-blog", [entry], at_ms, [""], ["speaker"])


async def test_each_happening_makes_one_pass_and_is_taken_once(tmp_path: Path) -> None:
    model = Model(reflection(topic="결과 알림"))
    app, speaker, _, got, provider = setup(tmp_path, model)
    now = afternoon(app)
    assert await speaker.tick(now) == []  # nothing happened: no trigger, no call
    cases: list[tuple[Any, str, str]] = [
        (finish_goal, "goal_done", "분기 보고서 초안 쓰기 — 초안 완성"),
        (finish_step, "focus_step", "노트북 세 대 비교 — 1/2 자료 모으기"),
        (new_item, "source_item", "rust-blog: Rust 1.90 released"),
    ]
    for i, (happen, kind, line) in enumerate(cases):
        at = now + i * 3 * 3_600_000  # far enough apart: not too soon after the last message
        happen(tmp_path, at)
        model.reply = reflection(topic=kind)  # a topic said lately would be vetoed (not_new)
        [result] = await speaker.tick(at + 1)
        assert result.reason == "spoke", kind
        assert line in model.reflections[-1]  # the reflection is told what happened
        assert len(got) == i + 1 and got[-1]["kind"] == "proactive"
        # taken once: the next tick has no trigger and makes no call
        assert await speaker.tick(at + 2) == []
        assert len(model.reflections) == i + 1
    assert all(not c.tools for c in provider.calls)  # background passes are offered no tool
    state = json.loads((tmp_path / "proactive" / "main.json").read_text())
    assert state["events_ms"] == now + 6 * 3_600_000


async def test_happenings_meet_the_same_vetoes_and_budget(tmp_path: Path) -> None:
    model = Model(reflection(topic="결과 알림", ratings=HIGH))
    app, speaker, builder, got, _ = setup(tmp_path, model)
    now = afternoon(app)
    night = now + 9 * 3_600_000  # 23:00 in the person's timezone
    finish_goal(tmp_path, night)
    [quiet] = await speaker.tick(night + 1)
    assert [v.reason for v in quiet.verdicts] == ["quiet_hours"] and got == []
    # today's budget set to what was used plus less than one call's reservation (its prompt's
    # bytes + max_tokens): the next happening makes no call at all
    used = json.loads((tmp_path / "proactive" / "main.json").read_text())["used_today"]
    app.settings.thinking.proactive.daily_tokens = used + 300
    again = ProactiveSpeaker(app, {"main": builder}, ProactiveHub())
    finish_step(tmp_path, night + 10)
    [over] = await again.tick(night + 11)
    assert (over.reason, over.called, len(model.reflections)) == ("over_budget", False, 1)


async def test_weak_ratings_stay_silent_and_a_restart_does_not_repeat_a_happening(
    tmp_path: Path,
) -> None:
    model = Model(reflection(topic="결과 알림", ratings=WEAK))
    app, speaker, builder, got, _ = setup(tmp_path, model)
    now = afternoon(app)
    new_item(tmp_path, now)
    [weak] = await speaker.tick(now + 1)
    assert [v.reason for v in weak.verdicts] == ["weak_factor"] and got == []
    again = ProactiveSpeaker(app, {"main": builder}, ProactiveHub())  # a restart: same files
    assert await again.tick(now + 2) == []
    assert len(model.reflections) == 1


async def test_off_by_default_happenings_call_and_write_nothing(tmp_path: Path) -> None:
    model = Model(reflection())
    app, speaker, _, got, _ = setup(tmp_path, model, enabled=False)
    now = afternoon(app)
    finish_goal(tmp_path, now)
    assert await speaker.tick(now + 1) == []
    assert model.reflections == [] and got == [] and not (tmp_path / "proactive").exists()
