"""The AGENDA judge's pre-filter (`may_hold_loop`): every promise and to-do of the labelled sets
passes it, and the AGENDA job asks the judge only when it could find something."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml

from jarvis.agent_layer.openloop.cues import _EN_CUES, _en_cue, may_hold_loop
from jarvis.agent_layer.openloop.judge import AgendaJudge
from jarvis.agent_layer.openloop.openloop_types import OpenLoopConfig
from jarvis.agent_layer.openloop.service import OpenLoopService
from jarvis.agent_layer.openloop.store import JsonlOpenLoopStore
from jarvis.agent_layer.sessions import MemorySessionStore
from jarvis.common.clock import Clock
from jarvis.core.agenda import AgendaJob
from jarvis.model_layer import FauxProvider, FauxResponse
from jarvis.model_layer.messages import LLMContext
from tests.unit.core.test_turn_endings import make, started

DATA = Path(__file__).resolve().parents[3] / "experiments" / "data"


def loop_pair_descriptions() -> list[str]:
    """Both sides of every pair in every split of the loop pairs: promises and to-dos as people
    write them, KO and EN (876 descriptions)."""
    data = yaml.safe_load((DATA / "loop_pairs.yaml").read_text("utf-8"))
    rows = [row for split in data.values() if isinstance(split, list) for row in split]
    return [text for row in rows for text in (row["a"], row["b"])]


# The person's words that the tests and experiments script the judge to find a promise in.
PROMISES = [
    "I have to send the report to Dana by friday 10am",
    "I also need to print the report for the board meeting",
    "can you run ls with bash? and I must renew my passport before the trip",
    "I'll send the report to Mina by Friday 10am.",
    "remind me to renew the car insurance",
    "I have to ship the order on Friday",
    "I need to send the invoice",
    "분기 보고서 초안을 팀장님께 보내야 해",
    "내일 오후 3시까지 보고서 보내야 해",
    "내일까지 보고서 보내야 해",
    "세금 신고서 제출해야 해",
    "금요일 오전 10시까지 보고서 보낼게",
    "엄마한테 전화하기",
    "잊지 말고 우유 사",
    "이따 약 먹을 거야",
    "walk the dog",
    "don't let me forget the dentist",
    "call mom",
]

# Words that carry no cue: the judge is not asked (when no open loop is shown).
NO_CUE = [
    "question number 5: what should I do about the report?",
    "what is the capital of France?",
    "hello there",
    "thanks, that helps",
    "how many bytes in a kilobyte?",
    "고마워",
    "안녕",
    "이 함수가 왜 느린지 모르겠어",
    "파이썬에서 리스트를 정렬하는 법",
]


def test_every_loop_pair_description_may_hold_a_loop() -> None:
    missed = [text for text in loop_pair_descriptions() if not may_hold_loop(text)]
    assert missed == []


@pytest.mark.parametrize("text", PROMISES)
def test_a_promise_may_hold_a_loop(text: str) -> None:
    assert may_hold_loop(text)


@pytest.mark.parametrize("text", NO_CUE)
def test_words_without_a_cue_hold_none(text: str) -> None:
    assert not may_hold_loop(text)


def test_most_ordinary_prompts_skip_the_judge() -> None:
    """The thought router's labelled prompts (questions, requests, chit-chat; a few plans with
    deadlines): about two in three carry no cue (130 of 200 when this was written)."""
    data = yaml.safe_load((DATA / "thinking_router.yaml").read_text("utf-8"))
    texts = [row["text"] for split in data.values() if isinstance(split, list) for row in split]
    skipped = [text for text in texts if not may_hold_loop(text)]
    assert len(skipped) >= len(texts) // 2


class _Clock(Clock):
    def now_ms(self) -> int:
        return int(datetime(2026, 10, 16, 11, 0, tzinfo=UTC).timestamp() * 1000)


def _judge_answers(ctx: LLMContext) -> FauxResponse:
    said = str(ctx.messages[-1].content).rsplit("\n", 1)[-1]
    if "hello" in said:
        return FauxResponse(text="none")
    return FauxResponse(text="send the report (evidence: send the report)")


def _job(tmp_path: Path, every_turn: bool = False) -> tuple[AgendaJob, FauxProvider]:
    store = JsonlOpenLoopStore(tmp_path / "loops.jsonl")
    service = OpenLoopService(store, OpenLoopConfig(), ZoneInfo("UTC"), _Clock())
    provider = FauxProvider(script=_judge_answers)
    job = AgendaJob(service, AgendaJudge(provider, "judge", "en", UTC))
    job.every_turn = every_turn
    return job, provider


async def test_the_judge_is_asked_only_when_it_could_find_something(tmp_path: Path) -> None:
    job, provider = _job(tmp_path)
    session, _ = make(FauxProvider(["ok"]), await started(MemorySessionStore()))
    await job(session, "what is the capital of France?")
    assert provider.calls == []  # no loop shown, no cue: not asked
    await job(session, "I need to send the report")
    assert len(provider.calls) == 1
    assert await job.service.current(session.setup.agent_id, session.info.user_id)
    await job(session, "hello")  # a loop is shown: any words may close it, so it is asked
    assert len(provider.calls) == 2


async def test_every_turn_asks_the_judge_always(tmp_path: Path) -> None:
    job, provider = _job(tmp_path, every_turn=True)
    session, _ = make(FauxProvider(["ok"]), await started(MemorySessionStore()))
    await job(session, "what is the capital of France?")
    assert len(provider.calls) == 1


@pytest.mark.parametrize(
    "text",
    [
        "Remind me TOMORROW at 3PM",
        "Pay the Electricity Bill by Friday",
        "question number 5: what should I do about the report?",
        "I'LL send it in 2 Hours",
        "Nothing to see HERE",
        "MEETING moved to Dec 3rd",
    ],
)
def test_the_ascii_fast_path_agrees_with_ignorecase(text: str) -> None:
    """Lower-cased ASCII without IGNORECASE finds what the IGNORECASE pattern finds."""
    assert _en_cue(text) is (_EN_CUES.search(text) is not None)
