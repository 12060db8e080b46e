"""Damaged, unreadable and oversized session files: reported, never fatal, never hiding turns,
never handing a session to another person."""

from __future__ import annotations

import json
import logging
import tracemalloc
from pathlib import Path

import pytest

from jarvis.agent_layer.sessions import JsonlSessionStore, SessionEntry, SessionInfo
from jarvis.agent_layer.sessions.jsonl_store import UNKNOWN_OWNER
from jarvis.model_layer import AssistantMessage, UserMessage


def turn(n: int, text: str = "") -> list[SessionEntry]:
    return [
        SessionEntry(turn=n, ts_ms=100 + n, message=UserMessage(content=text or f"q{n}")),
        SessionEntry(turn=n, ts_ms=100 + n, message=AssistantMessage(content=f"a{n}")),
    ]


async def make(root: Path, sid: str, turns: int, user: str = "local") -> None:
    store = JsonlSessionStore(root)
    await store.create(SessionInfo(id=sid, agent_id="main", user_id=user, created_ms=1))
    for n in range(1, turns + 1):
        await store.append(sid, turn(n))


def replace_first_line(path: Path, line: bytes) -> None:
    rest = path.read_bytes().split(b"\n", 1)[1]
    path.write_bytes(line + b"\n" + rest)


async def test_one_unreadable_file_leaves_the_others_listed_and_is_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await make(tmp_path, "good", 2)
    (tmp_path / "bad.jsonl").mkdir()  # opening it fails with an OSError, as EACCES would
    store = JsonlSessionStore(tmp_path)
    with caplog.at_level(logging.WARNING, logger="jarvis.sessions"):
        assert [i.id for i in await store.list_sessions()] == ["good"]
        assert [i.id for i in await store.list_sessions()] == ["good"]
        assert await store.get_info("bad") is None
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "bad.jsonl" in warnings[0] and "permissions" in warnings[0]


@pytest.mark.parametrize(
    "first_line",
    [b"\x00\x17garbage", b'["header"]', b'{"type": "header", "created_ms": "soon"}'],
)
async def test_a_damaged_header_does_not_hide_intact_turns(
    tmp_path: Path, first_line: bytes
) -> None:
    await make(tmp_path, "s1", 3)
    replace_first_line(tmp_path / "s1.jsonl", first_line)
    store = JsonlSessionStore(tmp_path)
    info = await store.get_info("s1")
    assert info is not None
    assert (info.turns, info.title, info.updated_ms, info.agent_id) == (3, "q1", 103, "main")
    assert [e.message.content for e in await store.history("s1")][-2:] == ["q3", "a3"]
    assert [i.id for i in await store.list_sessions(user_id="local")] == ["s1"]
    await store.append("s1", turn(4))
    assert (await JsonlSessionStore(tmp_path).get_info("s1")).turns == 4  # type: ignore[union-attr]


async def test_a_damaged_header_keeps_an_owner_that_survived_in_it(tmp_path: Path) -> None:
    await make(tmp_path, "s1", 2, user="alice")
    await make(tmp_path, "s2", 1, user="bob")
    torn = b'{"type": "header", "id": "s1", "agent_id": "main", "user_id": "alice", "cr'
    replace_first_line(tmp_path / "s1.jsonl", torn)
    store = JsonlSessionStore(tmp_path)
    info = await store.get_info("s1")
    assert info is not None and info.user_id == "alice" and info.turns == 2
    assert [i.id for i in await store.list_sessions(user_id="alice")] == ["s1"]


async def test_a_lost_owner_goes_to_nobody_when_several_people_use_the_folder(
    tmp_path: Path,
) -> None:
    await make(tmp_path, "s1", 2, user="alice")
    await make(tmp_path, "s2", 1, user="bob")
    replace_first_line(tmp_path / "s1.jsonl", b'{"type": "header", "user_id": "al')
    store = JsonlSessionStore(tmp_path)
    info = await store.get_info("s1")
    assert info is not None and info.user_id == UNKNOWN_OWNER and info.turns == 2
    for person in ("alice", "bob", "local", "al"):
        assert "s1" not in [i.id for i in await store.list_sessions(user_id=person)]
    listed = await JsonlSessionStore(tmp_path).list_sessions()
    assert {i.id: i.user_id for i in listed} == {"s1": UNKNOWN_OWNER, "s2": "bob"}


async def test_a_lost_owner_is_the_local_user_on_a_single_user_install(tmp_path: Path) -> None:
    await make(tmp_path, "s1", 2)
    await make(tmp_path, "s2", 1)
    replace_first_line(tmp_path / "s1.jsonl", b"{")
    listed = await JsonlSessionStore(tmp_path).list_sessions(user_id="local")
    assert sorted(i.id for i in listed) == ["s1", "s2"]


async def test_a_missing_header_keeps_the_first_entry(tmp_path: Path) -> None:
    await make(tmp_path, "s1", 2)
    path = tmp_path / "s1.jsonl"
    path.write_bytes(path.read_bytes().split(b"\n", 1)[1])  # header line gone
    store = JsonlSessionStore(tmp_path)
    history = await store.history("s1")
    assert [e.message.content for e in history] == ["q1", "a1", "q2", "a2"]
    info = await store.get_info("s1")
    assert info is not None and (info.created_ms, info.title) == (101, "q1")


async def test_a_line_longer_than_the_bound_is_skipped_without_being_loaded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await make(tmp_path, "s1", 2)
    huge = {"type": "entry", "turn": 3, "ts_ms": 103, "message": {"role": "user"}}
    line = json.dumps(huge)[:-2] + ', "content": "' + "x" * (40 * 1024 * 1024) + '"}}\n'
    with (tmp_path / "s1.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(line)
    store = JsonlSessionStore(tmp_path)
    tracemalloc.start()
    try:
        with caplog.at_level(logging.WARNING, logger="jarvis.sessions"):
            [info] = await store.list_sessions()
            recent = await store.recent("s1", 5)
            history = await store.history("s1", limit=200)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (info.turns, info.updated_ms) == (2, 102)
    assert [e.turn for e in recent] == [1, 1, 2, 2] and len(history) == 4
    assert peak < 24 * 1024 * 1024  # the 40 MB line was never held whole
    assert any("longer than 8 MB" in r.getMessage() for r in caplog.records)


async def test_history_reads_only_the_window_it_returns(tmp_path: Path) -> None:
    await make(tmp_path, "s1", 20_000)
    size = (tmp_path / "s1.jsonl").stat().st_size
    store = JsonlSessionStore(tmp_path)
    history = await store.history("s1", limit=200)
    assert len(history) == 200 and history[-1].message.content == "a20000"
    assert store.bytes_read < 100_000 < size // 20


async def test_listing_twice_rereads_only_changed_files(tmp_path: Path) -> None:
    for sid in ("s1", "s2", "s3"):
        await make(tmp_path, sid, 3)
    store = JsonlSessionStore(tmp_path)
    await store.list_sessions()
    first = store.bytes_read
    assert len(await store.list_sessions()) == 3 and store.bytes_read == first
    other = JsonlSessionStore(tmp_path)
    await other.append("s2", turn(4))
    [top, *_] = await store.list_sessions()
    assert (top.id, top.turns) == ("s2", 4) and store.bytes_read > first
