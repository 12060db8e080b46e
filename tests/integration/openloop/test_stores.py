"""One suite for every open-loop store: the same conversation gives the same AGENDA."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from jarvis.agent_layer.openloop.openloop_types import (
    CandidateLoop,
    JudgeFrame,
    LoopScope,
    OpenLoop,
    OpenLoopConfig,
)
from jarvis.agent_layer.openloop.pg_store import PostgresOpenLoopStore
from jarvis.agent_layer.openloop.service import OpenLoopService
from jarvis.agent_layer.openloop.store import (
    JsonlOpenLoopStore,
    MemoryOpenLoopStore,
    OpenLoopStore,
)
from jarvis.common.clock import Clock
from jarvis.common.jsonl import DataFileError
from tests.support.postgres import postgres_dsn

SEOUL = ZoneInfo("Asia/Seoul")
START = int(datetime(2026, 10, 11, 9, 0, tzinfo=SEOUL).timestamp() * 1000)


class StepClock(Clock):
    def __init__(self) -> None:
        self.now = START

    def now_ms(self) -> int:
        return self.now


@pytest.fixture(params=["memory", "jsonl", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[OpenLoopStore]:
    if request.param == "memory":
        yield MemoryOpenLoopStore()
    elif request.param == "jsonl":
        yield JsonlOpenLoopStore(tmp_path / "openloops.jsonl")
    else:
        async for dsn in postgres_dsn():
            made = await PostgresOpenLoopStore.connect(dsn)
            yield made
            await made.aclose()


SCOPE = LoopScope(agent_id="main", user_id="u", session_id="s1")
CONVERSATION: list[tuple[str, JudgeFrame]] = [
    (
        "내일 오후 3시까지 분기 보고서 초안을 팀장님께 보내야 해",
        JudgeFrame(
            new=[
                CandidateLoop(
                    description="분기 보고서 초안을 팀장님께 보내기",
                    evidence="분기 보고서 초안을 팀장님께 보내야 해",
                )
            ]
        ),
    ),
    (
        "아 그리고 분기 보고서 초안을 팀장님께 보내야 하는 거 잊지 마",
        JudgeFrame(
            new=[
                CandidateLoop(
                    description="분기 보고서 초안을 팀장님께 보내기",
                    evidence="분기 보고서 초안을 팀장님께 보내야",
                )
            ]
        ),
    ),
    (
        "금요일까지 세금 신고서 제출해야 해",
        JudgeFrame(
            new=[CandidateLoop(description="세금 신고서 제출", evidence="세금 신고서 제출해야 해")]
        ),
    ),
    ("보고서는 취소됐어, 안 챙겨도 돼", JudgeFrame()),
]


async def run_conversation(service: OpenLoopService, clock: StepClock) -> dict[str, object]:
    for text, frame in CONVERSATION:
        clock.now += 60_000
        shown = await service.current("main", "u")
        await service.apply(SCOPE, text, frame, shown)
    agenda = await service.agenda("main", "u")
    return {
        "open": [(v.description, v.due_text, v.due_inferred) for v in agenda.open],
        "closed": [(v.description, v.status) for v in agenda.closed],
    }


async def test_the_same_conversation_gives_the_same_agenda(store: OpenLoopStore) -> None:
    clock = StepClock()
    service = OpenLoopService(store, OpenLoopConfig(), SEOUL, clock)
    agenda = await run_conversation(service, clock)
    assert agenda == {
        "open": [("세금 신고서 제출", "2026-10-16 18:00", True)],
        "closed": [("분기 보고서 초안을 팀장님께 보내기", "dismissed")],
    }


async def test_restating_merges_and_the_due_comes_from_the_users_words(
    store: OpenLoopStore,
) -> None:
    clock = StepClock()
    service = OpenLoopService(store, OpenLoopConfig(), SEOUL, clock)
    for text, frame in CONVERSATION[:2]:
        await service.apply(SCOPE, text, frame, await service.current("main", "u"))
    (loop,) = (await service.agenda("main", "u")).open
    assert loop.due_text == "2026-10-12 15:00" and not loop.due_inferred


async def test_status_changes_and_revive_rules(store: OpenLoopStore) -> None:
    clock = StepClock()
    service = OpenLoopService(store, OpenLoopConfig(), SEOUL, clock)
    text, frame = CONVERSATION[0]
    change = await service.apply(SCOPE, text, frame, [])
    loop_id = change.created[0].id
    assert await service.set_status(loop_id, "someone-else", "done") == "forbidden"
    assert await service.set_status("missing", "u", "done") == "not_found"
    assert await service.set_status(loop_id, "u", "done") == "ok"
    assert await service.set_status(loop_id, "u", "open") == "ok"
    clock.now += 2 * 86_400_000  # past due + 6 h: the next read expires it
    assert (await service.agenda("main", "u")).closed[0].status == "expired"
    assert await service.set_status(loop_id, "u", "open") == "conflict"


async def test_jsonl_is_an_append_log_where_the_last_line_wins(tmp_path: Path) -> None:
    path = tmp_path / "openloops.jsonl"
    clock = StepClock()
    service = OpenLoopService(JsonlOpenLoopStore(path), OpenLoopConfig(), SEOUL, clock)
    change = await service.apply(SCOPE, *CONVERSATION[0], [])
    await service.set_status(change.created[0].id, "u", "done")
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"id": "torn", "descr')
    reopened = JsonlOpenLoopStore(path)
    (loop,) = await reopened.for_user("main", "u")
    assert loop.status == "done"
    await reopened.save([loop.model_copy(update={"status": "open"})])
    assert (await JsonlOpenLoopStore(path).get(loop.id)).status == "open"  # type: ignore[union-attr]


def _loop(loop_id: str) -> OpenLoop:
    return OpenLoop(
        id=loop_id, agent_id="main", user_id="u", session_id="s", description=loop_id,
        created_ms=START, updated_ms=START,
    )  # fmt: skip


async def test_jsonl_never_glues_a_record_onto_a_line_torn_while_running(tmp_path: Path) -> None:
    path = tmp_path / "openloops.jsonl"
    store = JsonlOpenLoopStore(path)
    await store.save([_loop("first")])
    with path.open("a", encoding="utf-8") as handle:  # a write torn after the store loaded
        handle.write('{"id": "torn", "descr')
    await store.save([_loop("second")])
    reopened = JsonlOpenLoopStore(path)
    assert {lp.id for lp in await reopened.for_user("main", "u")} == {"first", "second"}


async def test_jsonl_unreadable_file_is_one_line_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "openloops.jsonl"
    path.mkdir()  # opening it fails with an OSError, as EACCES would
    with pytest.raises(DataFileError) as caught:
        JsonlOpenLoopStore(path)
    line = caught.value.message("en")
    assert str(path) in line and "move it aside" in line and "\n" not in line


async def test_jsonl_corrupt_lines_cost_one_warning_and_no_other_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "openloops.jsonl"
    good = _loop("kept").model_dump_json()
    path.write_bytes(b"\xff\xfe not utf-8\n" + good.encode() + b'\n{"id": 3}\n[1]\n')
    with caplog.at_level(logging.WARNING, logger="jarvis.openloop"):
        store = JsonlOpenLoopStore(path)
    assert [lp.id for lp in await store.for_user("main", "u")] == ["kept"]
    [warning] = caplog.records
    assert "skipped 3" in warning.getMessage() and str(path) in warning.getMessage()
