"""The AGENDA judge never delays or breaks the reply on a one-slot local server: it runs after
the reply there, and a call that was cut is asked once more."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jarvis.agent_layer.openloop.judge import GIVE_WAY_ATTEMPTS, AgendaJudge
from jarvis.agent_layer.sessions import MemorySessionStore
from jarvis.app.session_builder import _judge_after_reply
from jarvis.core.session import AgentSession
from jarvis.model_layer import FauxProvider, FauxResponse
from jarvis.model_layer.config import ModelSettings
from tests.unit.core.test_turn_endings import make, started


@pytest.mark.parametrize(
    ("timing", "provider", "base_url", "after"),
    [
        ("auto", "openai", "http://localhost:11434/v1", True),
        ("auto", "openai", "http://127.0.0.1:8080/v1", True),
        ("auto", "openai", "http://192.168.1.20:1234/v1", True),
        ("auto", "openai", "http://gpu-box.local:8000/v1", True),
        ("auto", "openai", "https://api.openai.com/v1", False),
        ("auto", "anthropic", "http://localhost:1/v1", False),
        ("auto", "faux", "http://localhost:1/v1", False),
        ("concurrent", "openai", "http://localhost:11434/v1", False),
        ("after_reply", "openai", "https://api.openai.com/v1", True),
    ],
)
def test_when_the_judge_runs(timing: str, provider: str, base_url: str, after: bool) -> None:
    model = ModelSettings(provider=provider, base_url=base_url)
    assert _judge_after_reply(timing, model) is after


class RecordingJob:
    def __init__(self, after_reply: bool) -> None:
        self.after_reply = after_reply
        self.saw_end: bool | None = None
        self.events: list[str] = []

    async def __call__(self, session: AgentSession, text: str) -> None:
        self.saw_end = "agent_end" in self.events


async def test_an_after_reply_job_starts_once_the_answer_is_out() -> None:
    store = await started(MemorySessionStore())
    session, _ = make(FauxProvider(["the reply"]), store)
    beside, after = RecordingJob(False), RecordingJob(True)
    session.setup.turn_jobs = [beside, after]
    session.subscribe(lambda e: [j.events.append(e.type) for j in (beside, after)])  # type: ignore[attr-defined]
    await session.prompt("hello")
    await session.settle()
    assert (beside.saw_end, after.saw_end) == (False, True)


async def test_a_cut_judge_call_is_asked_once_more() -> None:
    cut = FauxResponse(error="interrupted", error_kind="broken_stream")
    provider = FauxProvider([cut, "보고서 보내기 @2026-12-04 15:00 (근거: 보고서 보내야)"])
    judge = AgendaJudge(provider, "judge", "ko", UTC)
    said = "내일 3시까지 보고서 보내야 해"
    frame = await judge.judge(said, datetime(2026, 12, 3, tzinfo=UTC), [])
    assert len(provider.calls) == 2 and frame is not None and frame.new


async def test_a_refused_judge_call_is_not_repeated() -> None:
    refused = FauxResponse(error="bad request", error_kind="bad_request")
    provider = FauxProvider([refused, "never"])
    judge = AgendaJudge(provider, "judge", "ko", UTC)
    frame = await judge.judge("아무 말", datetime(2026, 12, 3, tzinfo=UTC), [])
    assert len(provider.calls) == 1 and frame is not None and not frame.new


GAVE_WAY = FauxResponse(error="gave way", error_kind="preempted")


async def test_a_judge_that_gave_way_asks_again_until_it_gets_through() -> None:
    answer = "보고서 보내기 @2026-12-04 15:00 (근거: 보고서 보내야)"
    provider = FauxProvider([GAVE_WAY] * (GIVE_WAY_ATTEMPTS - 1) + [answer])
    judge = AgendaJudge(provider, "judge", "ko", UTC)
    said = "내일 3시까지 보고서 보내야 해"
    frame = await judge.judge(said, datetime(2026, 12, 3, tzinfo=UTC), [])
    assert len(provider.calls) == GIVE_WAY_ATTEMPTS and frame is not None and frame.new


async def test_a_judge_that_always_gave_way_says_not_judged() -> None:
    provider = FauxProvider([GAVE_WAY] * GIVE_WAY_ATTEMPTS + ["never"])
    judge = AgendaJudge(provider, "judge", "ko", UTC)
    said = "내일 3시까지 보고서 보내야 해"
    frame = await judge.judge(said, datetime(2026, 12, 3, tzinfo=UTC), [])
    assert frame is None and len(provider.calls) == GIVE_WAY_ATTEMPTS
