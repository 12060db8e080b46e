"""Issue 24 item 6 end to end: a real session's turns, the AGENDA job, the real service on the
JSONL store, and the scripted model acting as the AGENDA judge (the only stand-in).

A Friday evening in Seoul: "by friday 10am" is next Friday's, saying it four times (and again
after it expired) keeps one row, "the report is cancelled" with two reports open asks which and
closes only the one named, and a one-word item with no evidence never becomes a promise.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from jarvis.agent_layer.loop import AgentLoopConfig
from jarvis.agent_layer.openloop.judge import GIVE_WAY_ATTEMPTS, AgendaJudge
from jarvis.agent_layer.openloop.openloop_types import OpenLoop, OpenLoopConfig
from jarvis.agent_layer.openloop.service import OpenLoopService
from jarvis.agent_layer.openloop.store import JsonlOpenLoopStore
from jarvis.agent_layer.sessions import MemorySessionStore, SessionInfo
from jarvis.common.clock import Clock
from jarvis.core.agenda import AgendaJob
from jarvis.core.session import AgentSession, SessionSetup
from jarvis.core.slash.openloop import explain_loop
from jarvis.model_layer import FauxProvider, FauxResponse
from jarvis.model_layer.messages import LLMContext

SEOUL = ZoneInfo("Asia/Seoul")
FRIDAY_EVENING = datetime(2026, 10, 16, 20, 0, tzinfo=SEOUL)
HOUR_MS = 3600 * 1000


class SetClock(Clock):
    def __init__(self, at: datetime) -> None:
        self.now = int(at.timestamp() * 1000)

    def now_ms(self) -> int:
        return self.now


class Judge:
    """The scripted AGENDA judge: the answer for the user's words in its context."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers
        self.seen: list[str] = []

    def __call__(self, ctx: LLMContext) -> FauxResponse:
        text = str(ctx.messages[-1].content)
        user = text.rsplit("\n", 1)[-1]
        self.seen.append(text)
        return FauxResponse(text=self.answers.get(user, "none"))


class World:
    def __init__(self, home: Path, judge: Judge) -> None:
        self.clock = SetClock(FRIDAY_EVENING)
        self.store = JsonlOpenLoopStore(home / "openloops.jsonl")
        self.sessions = MemorySessionStore()
        self.service = OpenLoopService(self.store, OpenLoopConfig(), SEOUL, self.clock)
        job = AgendaJob(self.service, AgendaJudge(FauxProvider(script=judge), "judge", "en", SEOUL))
        setup = SessionSetup(
            agent_id="main",
            agent_name="JARVIS",
            provider=FauxProvider(script=lambda ctx: FauxResponse(text="OK.")),
            model="faux",
            system_prompt=lambda tools: "SYSTEM",
            tools=lambda: None,
            store=self.sessions,
            memory=None,
            loop_config=AgentLoopConfig(),
            input_max_length=1000,
            clock=self.clock,
            language="en",
        )
        setup.turn_jobs = [job]
        self.info = SessionInfo(id="s1", user_id="u")
        self.session = AgentSession(setup, self.info)
        self.events: list[BaseModel] = []
        self.session.subscribe(self.events.append)

    @classmethod
    async def start(cls, home: Path, judge: Judge) -> World:
        world = cls(home, judge)
        await world.sessions.create(world.info)
        return world

    async def say(self, text: str) -> None:
        await self.session.prompt(text)
        await self.session.settle()

    async def rows(self) -> list[OpenLoop]:
        return await self.store.for_user("main", "u")

    def questions(self) -> list[str]:
        return [str(getattr(e, "text", "")) for e in self.events if e.type == "agenda_question"]  # type: ignore[attr-defined]


def due_text(loop: OpenLoop) -> str:
    assert loop.due_ms is not None
    return datetime.fromtimestamp(loop.due_ms / 1000, SEOUL).strftime("%a %Y-%m-%d %H:%M")


PROMISE = "I have to send the report to Dana by friday 10am"
PRINT = "I also need to print the report for the board meeting"
JUDGE = Judge(
    {
        # The judge drops the due (as small models do): it is read from the person's words.
        PROMISE: "send the report to Dana (evidence: send the report to Dana by friday 10am)",
        PRINT: "print the report for the board meeting (evidence: print the report for the "
        "board meeting)",
        # It closes both reports, as a small model does, when the words cannot tell which.
        "the report is cancelled": "close: [1], [2]",
        "the second one": "close: [1]",
        # A one-word item with no evidence, beside the real promise it paraphrased.
        "can you run ls with bash? and I must renew my passport before the trip": "bash\n"
        "renew passport before trip (evidence: I must renew my passport before the trip)",
    }
)


async def test_friday_evening_promises_are_kept_once_asked_about_and_never_invented(
    tmp_path: Path,
) -> None:
    world = await World.start(tmp_path, JUDGE)
    # "by friday 10am" on a Friday evening is next Friday, open.
    await world.say(PROMISE)
    [loop] = await world.rows()
    assert (loop.status, due_text(loop)) == ("open", "Fri 2026-10-23 10:00")
    assert loop.evidence == "send the report to Dana by friday 10am"

    # Said four times: one row.
    for _ in range(3):
        await world.say(PROMISE)
    assert [lp.id for lp in await world.rows()] == [loop.id]

    # It expires (due + 6 h), then is said again on a later Friday evening: the same row opens.
    world.clock.now = loop.due_ms + 7 * HOUR_MS  # type: ignore[operator]
    assert [lp.status for lp in (await world.service.agenda("main", "u")).closed] == ["expired"]
    world.clock.now += 3 * HOUR_MS  # Friday 2026-10-23 20:00
    await world.say(PROMISE)
    [again] = await world.rows()
    assert (again.id, again.status, due_text(again)) == (loop.id, "open", "Fri 2026-10-30 10:00")
    explained = explain_loop(again, SEOUL, "en")
    assert "said again, reopened: send the report to Dana" in explained
    assert "was expired (due_passed)" in explained

    # Two report promises; "the report is cancelled" closes neither and asks which.
    await world.say(PRINT)
    await world.say("the report is cancelled")
    assert sorted(lp.status for lp in await world.rows()) == ["open", "open"]
    [question] = world.questions()
    assert question.startswith("Which promise is cancelled? 1) print the report")
    assert "2) send the report to Dana" in question
    # The answer names one: only that one closes, as dismissed.
    await world.say("the second one")
    by_text = {lp.description: lp for lp in await world.rows()}
    assert by_text["send the report to Dana"].status == "dismissed"
    assert by_text["send the report to Dana"].closed_reason == "dismissal_answer"
    assert by_text["print the report for the board meeting"].status == "open"

    # "bash" with no evidence is no promise; the real one is kept, with the person's words.
    await world.say("can you run ls with bash? and I must renew my passport before the trip")
    descriptions = {lp.description: lp for lp in await world.rows()}
    assert "bash" not in descriptions
    kept = descriptions["renew passport before trip"]
    assert kept.evidence == "I must renew my passport before the trip"


async def test_a_promise_whose_judge_always_gave_way_is_judged_after_the_next_turn(
    tmp_path: Path,
) -> None:
    """A one-slot server and a person who keeps typing: every call of the judge gave way. The
    words wait (not dropped) and are judged first when the next turn's job runs."""
    gave_way = {"left": GIVE_WAY_ATTEMPTS}

    def judge(ctx: LLMContext) -> FauxResponse:
        if gave_way["left"]:
            gave_way["left"] -= 1
            return FauxResponse(error="gave way", error_kind="preempted")
        return JUDGE(ctx)

    world = await World.start(tmp_path, Judge({}))
    world.session.setup.turn_jobs[0].judge.provider = FauxProvider(script=judge)  # type: ignore[attr-defined]
    await world.say(PROMISE)
    assert await world.rows() == []
    (job,) = world.session.setup.turn_jobs
    assert [text for text, _ in job.waiting] == [PROMISE]  # type: ignore[attr-defined]
    world.clock.now += 8 * 24 * HOUR_MS  # a week later: "by friday" is read as when it was said
    await world.say("thanks")
    [loop] = await world.rows()
    assert loop.description == "send the report to Dana" and loop.status == "open"
    assert loop.evidence and "send the report to Dana" in loop.evidence
    assert due_text(loop) == "Fri 2026-10-23 10:00"
    assert job.waiting == []  # type: ignore[attr-defined]
