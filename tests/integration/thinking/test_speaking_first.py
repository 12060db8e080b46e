"""Speaking first, wired: a real app on files (AGENDA, sessions, the per-agent JSON), the real
approval broker, the scripted model. Triggers → fingerprint → budget → one reflection → the gate
→ `proactive_message`; feedback reaches the learner's file; "do it" is an ordinary gated turn."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from jarvis.agent_layer.openloop.openloop_model import OpenLoop
from jarvis.app.infra import AppAssembly
from jarvis.app.proactive.speaker import ProactiveSpeaker
from jarvis.app.session_builder import SessionBuilder
from jarvis.app.unattended.notify import ProactiveHub
from jarvis.core.proactive.reflection import REFLECTION_MARKER
from jarvis.model_layer import FauxProvider, FauxResponse, LLMContext
from jarvis.ui.web.broker import ApprovalBroker, Connection
from tests.integration.thinking.test_wired import make_app, scripted

HIGH = {"relevance": 5, "urgency": 5, "impact": 5, "originality": 4, "timing": 5}
WEAK = {**HIGH, "timing": 1}


def reflection(topic: str = "분기 보고서", ratings: dict[str, int] | None = None) -> str:
    item = {
        "kind": "reminder",
        "utterance": "분기 보고서 초안, 오늘 오후에 같이 볼까요?",
        "topic": topic,
        "ratings": ratings or HIGH,
    }
    return json.dumps([item], ensure_ascii=False)


class Model:
    """Reflection calls answered with `reply`; every other call (turns) by `turn`."""

    def __init__(self, reply: str, turn: Any = "네.") -> None:
        self.reply = reply
        self.turn = turn
        self.reflections: list[str] = []

    def __call__(self, ctx: LLMContext) -> FauxResponse | str:
        if ctx.system_prompt.startswith(REFLECTION_MARKER):
            self.reflections.append(str(ctx.messages[-1].content))
            return self.reply
        return self.turn(ctx) if callable(self.turn) else self.turn


def afternoon(app: AppAssembly) -> int:
    """14:00 in the person's timezone, at or after now (outside the quiet hours)."""
    tz = ZoneInfo(app.settings.timezone)
    now = datetime.fromtimestamp(app.clock.now_ms() / 1000, tz)
    at = now.replace(hour=14, minute=0, second=0, microsecond=0)
    if at < now:
        at += timedelta(days=1)
    return int(at.timestamp() * 1000)


Setup = tuple[AppAssembly, ProactiveSpeaker, SessionBuilder, list[dict[str, Any]], FauxProvider]


def setup(tmp_path: Path, model: Model, **proactive: Any) -> Setup:
    app = make_app(
        tmp_path,
        openloop={"enabled": True},
        thinking={"proactive": {"enabled": True, **proactive}},
    )
    provider = scripted(app, model)
    builder = SessionBuilder(app)
    hub = ProactiveHub()
    got: list[dict[str, Any]] = []  # what the person's windows were told, passes aside
    hub.attach("local", lambda event: got.append(event) if event["type"] != "proactive_pass" else 0)
    return app, ProactiveSpeaker(app, {"main": builder}, hub), builder, got, provider


async def add_loop(app: AppAssembly, loop_id: str, text: str, due_ms: int) -> None:
    made = due_ms - 7_200_000
    owner = {"agent_id": "main", "user_id": "local", "session_id": "s"}
    loop = OpenLoop(
        id=loop_id, description=text, due_ms=due_ms, created_ms=made, updated_ms=made, **owner
    )
    await app.openloops.store.save([loop])


async def reminded(tmp_path: Path, model: Model) -> tuple[Setup, int]:
    """The app at 14:00 with one promise due in 30 minutes."""
    parts = setup(tmp_path, model)
    now = afternoon(parts[0])
    await add_loop(parts[0], "L1", "분기 보고서 초안 보내기", now + 30 * 60_000)
    return parts, now


async def test_a_due_agenda_item_speaks_once_and_an_unchanged_situation_costs_nothing(
    tmp_path: Path,
) -> None:
    model = Model(reflection())
    (app, speaker, _, got, _), now = await reminded(tmp_path, model)
    first = await speaker.tick(now)
    assert [r.reason for r in first] == ["spoke"]
    assert len(got) == 1 and got[0]["kind"] == "proactive"
    assert got[0]["text"] == "분기 보고서 초안, 오늘 오후에 같이 볼까요?"
    assert got[0]["message_id"].startswith("proactive:main:")
    assert got[0]["actions"] == ["thumbs_up", "thumbs_down", "do_it"]
    # reflection read the AGENDA numbered, newest first — and left it as it was
    assert "[1] 분기 보고서 초안 보내기 (기한 " in model.reflections[0]
    assert [lp.status for lp in await app.openloops.store.open_with_due()] == ["open"]
    # the template was written where the person can edit it
    assert "utterance" in (tmp_path / "inner_thought_reflection.md").read_text()
    # the same situation on the next ticks: no model call, nothing said
    again = await speaker.tick(now + 60_000) + await speaker.tick(now + 120_000)
    assert [r.reason for r in again] == ["unchanged", "unchanged"]
    assert len(model.reflections) == 1 and len(got) == 1
    saved = json.loads((tmp_path / "proactive" / "main.json").read_text())
    assert saved["said"][0]["message_id"] == got[0]["message_id"]


async def test_the_daily_budget_is_never_exceeded_even_across_a_restart(tmp_path: Path) -> None:
    model = Model(reflection(ratings=WEAK))  # weak: never spoken, so every change calls again
    app, speaker, builder, _, _ = setup(tmp_path, model, daily_tokens=5_000)
    now = afternoon(app)
    calls_before = 0
    for i in range(12):
        await add_loop(app, f"L{i}", f"할 일 {i}", now + 60 * 60_000)
        await speaker.tick(now + i)
    calls_before = len(model.reflections)
    state = json.loads((tmp_path / "proactive" / "main.json").read_text())
    assert 0 < calls_before < 12 and state["used_today"] <= 5_000
    again = ProactiveSpeaker(app, {"main": builder}, ProactiveHub())  # a restart: same file
    await add_loop(app, "L99", "새 할 일", now + 60 * 60_000)
    assert [r.reason for r in await again.tick(now + 100)] == ["over_budget"]
    assert len(model.reflections) == calls_before


async def test_quiet_hours_and_a_running_turn_veto_and_no_tool_ever_runs(tmp_path: Path) -> None:
    model = Model(reflection())
    app, speaker, builder, got, provider = setup(tmp_path, model)
    now = afternoon(app)
    await add_loop(app, "L1", "세금 신고", now + 12 * 3_600_000)  # due in 12 h: not urgent
    speaker.cfg.due_within_min = 24 * 60
    night = now + 9 * 3_600_000  # 23:00: quiet hours
    [quiet] = await speaker.tick(night)
    assert (quiet.reason, [v.reason for v in quiet.verdicts]) == ("silent", ["quiet_hours"])
    session = await builder.create()
    async with session.exclusive():  # a turn running
        await add_loop(app, "L2", "세금 신고 서류", now + 12 * 3_600_000)
        [busy] = await speaker.tick(now)
    assert [v.reason for v in busy.verdicts] == ["turn_running"]
    assert got == []
    assert all(not c.tools for c in provider.calls)  # a reflection is offered no tool at all


async def test_a_pending_approval_vetoes_and_do_it_is_an_ordinary_gated_turn(
    tmp_path: Path,
) -> None:
    def turn(ctx: LLMContext) -> FauxResponse | str:
        if "해 주세요" in str(ctx.messages[-1].content):
            return FauxResponse.model_validate(
                {"tool_calls": [{"name": "bash", "arguments": {"command": "touch done.txt"}}]}
            )
        return "알겠어요."

    model = Model(reflection(), turn)
    (app, speaker, builder, got, _), now = await reminded(tmp_path, model)
    [spoke] = await speaker.tick(now)
    assert spoke.reason == "spoke" and len(got) == 1
    message_id = got[0]["message_id"]
    assert speaker.feedback("someone-else", message_id, "do_it", now) is None  # not theirs
    prompt = speaker.feedback("local", message_id, "do_it", now)
    assert prompt is not None and "분기 보고서" in prompt
    saved = json.loads((tmp_path / "proactive" / "main.json").read_text())
    assert saved["learner"]["kinds"]["reminder"] == {"counts": {"do_it": 1}, "moves": []}
    # "do it" is sent by the window as an ordinary turn: the tool gate asks, as for any turn
    session = await builder.create()
    broker = ApprovalBroker(session.id, shared=True)
    window = Connection("local")
    broker.attach(window)
    app.channels.attach(session.id, broker)
    running = asyncio.create_task(session.prompt(prompt))
    frames = await asyncio.wait_for(window.frames(), 30)
    assert frames is not None
    request = json.loads(frames[0])
    assert request["type"] == "approval_request"
    assert not (tmp_path / "done.txt").exists()
    assert speaker.approval_pending(session.id)  # the real broker's state
    await add_loop(app, "L2", "회의록 정리", now + 30 * 60_000)
    [vetoed] = await speaker.tick(now + 60_000)
    assert vetoed.verdicts and vetoed.verdicts[0].reason in ("turn_running", "approval_pending")
    session.abort()
    await running
    assert len(got) == 1 and not speaker.approval_pending(session.id)


async def test_thumbs_down_twice_mutes_the_topic_and_the_file_survives_bad_edits(
    tmp_path: Path,
) -> None:
    model = Model(reflection())
    app, speaker, _, got, _ = setup(tmp_path, model)
    now = afternoon(app)
    day = 86_400_000
    for i, when in enumerate((now, now + day)):  # a topic said today is not new: a day apart
        await add_loop(app, f"L{i}", f"분기 보고서 {i}", when + 30 * 60_000)
        await speaker.tick(when)
        assert speaker.feedback("local", got[-1]["message_id"], "thumbs_down", when) == ""
        # the same card answered twice (two windows) counts once
        assert speaker.feedback("local", got[-1]["message_id"], "thumbs_down", when) == ""
        if i == 0:
            saved = json.loads((tmp_path / "proactive" / "main.json").read_text())
            assert saved["learner"]["muted_until_ms"] == {}
    assert len(got) == 2
    await add_loop(app, "L9", "분기 보고서 마감", now + 2 * day + 30 * 60_000)
    [muted] = await speaker.tick(now + 2 * day)
    assert [v.reason for v in muted.verdicts] == ["muted_topic"] and len(got) == 2
    path = tmp_path / "proactive" / "main.json"
    path.write_text("{ broken", encoding="utf-8")
    await add_loop(app, "L10", "다른 일", now + 2 * day + 30 * 60_000)
    await speaker.tick(now + 2 * day + 60_000)
    assert path.read_text(encoding="utf-8") == "{ broken"  # never written over


async def test_a_template_without_utterance_turns_it_off_and_edits_are_reread(
    tmp_path: Path,
) -> None:
    model = Model(reflection())
    (_, speaker, _, got, _), now = await reminded(tmp_path, model)
    template = tmp_path / "inner_thought_reflection.md"
    template.write_text("Say nothing. {{open_loops}}", encoding="utf-8")
    assert [r.reason for r in await speaker.tick(now)] == ["template_off"]
    assert model.reflections == [] and got == []
    template.write_text("MINE utterance {{open_loops}} {{trigger}}", encoding="utf-8")
    assert [r.reason for r in await speaker.tick(now + 1)] == ["spoke"]
    assert model.reflections[0].startswith("MINE utterance [1] 분기 보고서")


async def test_idle_after_a_conversation_triggers_once_per_quiet_spell(tmp_path: Path) -> None:
    model = Model(reflection(topic="대화 후속", ratings=WEAK))
    _, speaker, builder, _, _ = setup(tmp_path, model, idle_sec=60)
    empty = await builder.create()
    session = await builder.create()
    await session.prompt("배포 스크립트 같이 고쳐보자")
    await session.settle()
    quiet_from = session.info.updated_ms
    assert await speaker.tick(quiet_from + 30_000) == []  # not quiet long enough
    [idle] = await speaker.tick(quiet_from + 61_000)
    assert idle.called and "user: 배포 스크립트 같이 고쳐보자" in model.reflections[0]
    assert await speaker.tick(quiet_from + 600_000) == []  # the same quiet spell: once
    assert empty.info.turns == 0


async def test_off_by_default_nothing_is_called(tmp_path: Path) -> None:
    app = make_app(tmp_path, openloop={"enabled": True})
    model = Model(reflection())
    scripted(app, model)
    hub = ProactiveHub()
    speaker = ProactiveSpeaker(app, {"main": SessionBuilder(app)}, hub)
    now = afternoon(app)
    await add_loop(app, "L1", "분기 보고서 초안 보내기", now + 30 * 60_000)
    assert await speaker.tick(now) == [] and model.reflections == [] and hub.sent == []
    assert not (tmp_path / "inner_thought_reflection.md").exists()


async def test_the_unattended_ticker_starts_the_pass_on_a_live_server(tmp_path: Path) -> None:
    """The real wiring: `runtime.tick` pokes the speaker; its pass runs in its own task."""
    from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of
    from tests.support.live_server import live_server

    openloop = {"model": {"provider": "faux", "model": "judge", "script": str(tmp_path / "j")}}
    (tmp_path / "j").write_text("[]\n", encoding="utf-8")
    proactive = {"proactive": {"enabled": True}}
    with live_server(
        tmp_path, [reflection()], scheduler=MANUAL, thinking=proactive, openloop=openloop
    ) as server:
        service = unattended_of(server)
        runtime = service.runtime
        assert runtime is not None and runtime.speaker is service.speaker
        now = afternoon(service.app)
        await on_server(server, add_loop(service.app, "L1", "보고서 보내기", now + 1_800_000))
        await on_server(server, runtime.tick(now))

        async def finished() -> list[Any]:
            assert service.speaker._running is not None
            return await service.speaker._running

        [result] = await on_server(server, finished())
        assert result.reason == "spoke"
        assert [
            m["kind"] for m in service.hub.sent if m["message_id"].startswith("proactive:")
        ] == ["proactive"]
