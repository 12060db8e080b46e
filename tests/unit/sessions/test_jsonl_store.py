"""JSONL specifics: format, resume, crash recovery, bounded reads."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from jarvis.agent_layer.sessions import (
    JsonlSessionStore,
    SessionEntry,
    SessionInfo,
    SessionNotFound,
)
from jarvis.model_layer import AssistantMessage, ToolCall, ToolResultMessage, UserMessage


def turn(n: int) -> list[SessionEntry]:
    return [
        SessionEntry(turn=n, ts_ms=n, message=UserMessage(content=f"q{n}")),
        SessionEntry(
            turn=n,
            ts_ms=n,
            message=AssistantMessage(
                content="",
                tool_calls=[ToolCall(id=f"c{n}", name="bash", arguments={"command": "ls"})],
            ),
        ),
        SessionEntry(
            turn=n,
            ts_ms=n,
            message=ToolResultMessage(tool_call_id=f"c{n}", tool_name="bash", content="a\nb"),
        ),
        SessionEntry(turn=n, ts_ms=n, message=AssistantMessage(content=f"a{n}")),
    ]


async def filled(root: Path, turns: int, sid: str = "s1") -> JsonlSessionStore:
    store = JsonlSessionStore(root)
    await store.create(SessionInfo(id=sid, agent_id="main", created_ms=1))
    for n in range(1, turns + 1):
        await store.append(sid, turn(n))
    return store


async def test_file_format_has_a_header_then_one_line_per_entry(tmp_path: Path) -> None:
    await filled(tmp_path, 2)
    lines = (tmp_path / "s1.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["type"] == "header" and header["format"] == 1 and header["id"] == "s1"
    assert len(lines) == 1 + 8
    assert all(json.loads(line)["type"] == "entry" for line in lines[1:])


async def test_resume_in_a_new_store_gives_the_same_view(tmp_path: Path) -> None:
    first = await filled(tmp_path, 40)
    second = JsonlSessionStore(tmp_path)
    assert await second.recent("s1", 3) == await first.recent("s1", 3)
    assert await second.history("s1") == await first.history("s1")
    info = await second.get_info("s1")
    assert info is not None and info.turns == 40 and info.title == "q1"
    await second.append("s1", turn(41))
    assert next(e.turn for e in await second.recent("s1", 2)) == 40


async def test_torn_last_line_is_skipped_and_next_append_is_clean(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await filled(tmp_path, 3)
    path = tmp_path / "s1.jsonl"
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"type": "entry", "turn": 4, "ts_ms": 4, "message": {"role": "us')
    store = JsonlSessionStore(tmp_path)
    with caplog.at_level(logging.WARNING, logger="jarvis.sessions"):
        recent = await store.recent("s1", 1)
    assert {e.turn for e in recent} == {3}
    [warning] = caplog.records  # one warning, not one per reader
    assert "torn or corrupt" in warning.getMessage()
    await store.append("s1", turn(4))
    reread = JsonlSessionStore(tmp_path)
    assert [e.turn for e in await reread.history("s1")][-4:] == [4, 4, 4, 4]
    assert len(await reread.history("s1")) == 16


async def test_garbage_in_the_middle_loses_no_other_line(tmp_path: Path) -> None:
    await filled(tmp_path, 2)
    path = tmp_path / "s1.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(3, "\x00\x00 not json {{{")
    lines.insert(5, '{"type": "entry", "turn": 1}')  # valid JSON, not a valid entry
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert len(await JsonlSessionStore(tmp_path).history("s1")) == 8


async def test_json_lines_with_wrong_types_are_skipped_not_fatal(tmp_path: Path) -> None:
    await filled(tmp_path, 2)
    with (tmp_path / "s1.jsonl").open("a", encoding="utf-8") as handle:
        handle.write('{"type": "entry", "turn": "x", "ts_ms": 1, "message": {}}\n')
        handle.write('{"type": "entry", "turn": 3, "ts_ms": 3, "message": "hi"}\n')
        handle.write("[1, 2]\n")
    store = JsonlSessionStore(tmp_path)
    assert [i.id for i in await store.list_sessions()] == ["s1"]
    assert {e.turn for e in await store.recent("s1", 5)} == {1, 2}
    assert len(await store.history("s1")) == 8


async def test_a_file_without_a_valid_header_is_skipped_and_create_recovers(
    tmp_path: Path,
) -> None:
    (tmp_path / "s1.jsonl").write_bytes(b'{"type": "hea')  # crash while creating
    (tmp_path / "s2.jsonl").write_text('{"type": "header", "created_ms": "soon"}\n')
    store = JsonlSessionStore(tmp_path)
    assert await store.get_info("s1") is None
    assert await store.list_sessions() == []
    await store.create(SessionInfo(id="s1", created_ms=7))
    await store.append("s1", turn(1))
    info = await JsonlSessionStore(tmp_path).get_info("s1")
    assert info is not None and (info.created_ms, info.turns) == (7, 1)
    [aside] = tmp_path.glob("s1.*.broken")
    assert aside.read_bytes() == b'{"type": "hea'  # kept, not deleted


async def test_a_long_first_message_keeps_its_title_on_resume(tmp_path: Path) -> None:
    store = JsonlSessionStore(tmp_path)
    await store.create(SessionInfo(id="s1"))
    text = "please read this log " + "x" * 200_000
    await store.append("s1", [SessionEntry(turn=1, ts_ms=1, message=UserMessage(content=text))])
    info = await JsonlSessionStore(tmp_path).get_info("s1")
    assert info is not None and info.title == text[:60]


async def test_recent_beyond_the_window_rereads_a_larger_tail(tmp_path: Path) -> None:
    await filled(tmp_path, 60)
    store = JsonlSessionStore(tmp_path)
    assert len({e.turn for e in await store.recent("s1", 3)}) == 3
    assert {e.turn for e in await store.recent("s1", 50)} == set(range(11, 61))
    await store.append("s1", turn(61))
    assert {e.turn for e in await store.recent("s1", 50)} == set(range(12, 62))


async def test_resuming_a_long_session_reads_a_bounded_amount(tmp_path: Path) -> None:
    await filled(tmp_path, 20_000)
    size = (tmp_path / "s1.jsonl").stat().st_size
    store = JsonlSessionStore(tmp_path)
    recent = await store.recent("s1", 3)
    assert {e.turn for e in recent} == {19_998, 19_999, 20_000}
    assert store.bytes_read < 300_000 < size // 20
    info = await store.get_info("s1")
    assert info is not None and info.turns == 20_000


async def test_listing_reads_head_and_last_entry_only(tmp_path: Path) -> None:
    await filled(tmp_path, 20_000)
    store = JsonlSessionStore(tmp_path)
    [info] = await store.list_sessions()
    assert (info.turns, info.updated_ms, info.title) == (20_000, 20_000, "q1")
    assert store.bytes_read < 16_000


async def _append_and_recent_work(root: Path, turns: int) -> tuple[int, int, int]:
    """Bytes read, lines added and entries returned by ten append+recent rounds."""
    store = await filled(root, turns)
    path = root / "s1.jsonl"
    before, read_before = path.read_bytes(), store.bytes_read
    returned = 0
    for n in range(turns + 1, turns + 11):
        await store.append("s1", turn(n))
        returned += len(await store.recent("s1", 3))
    after = path.read_bytes()
    assert after.startswith(before)  # appends never rewrite what is there
    return store.bytes_read - read_before, after[len(before) :].count(b"\n"), returned


async def test_append_and_recent_do_the_same_work_at_turn_20_and_2000(tmp_path: Path) -> None:
    early = await _append_and_recent_work(tmp_path / "early", 20)
    late = await _append_and_recent_work(tmp_path / "late", 2_000)
    assert early == late == (0, 40, 120)


async def test_bad_session_ids_are_rejected(tmp_path: Path) -> None:
    store = JsonlSessionStore(tmp_path)
    for bad in ["../x", "a/b", "", "x" * 65, "a.b"]:
        with pytest.raises(ValueError):
            await store.create(SessionInfo(id=bad))
        # An id that cannot name a file names no session.
        assert await store.get_info(bad) is None
        with pytest.raises(SessionNotFound):
            await store.append(bad, turn(1))
    assert list(tmp_path.iterdir()) == []


async def test_the_tail_stays_bounded_and_recent_is_exact_through_many_appends(
    tmp_path: Path,
) -> None:
    store = JsonlSessionStore(tmp_path)
    await store.create(SessionInfo(id="s1"))
    for n in range(1, 301):
        await store.append("s1", turn(n))
        assert {e.turn for e in await store.recent("s1", 3)} == set(range(max(1, n - 2), n + 1))
        tail = store._tails["s1"]
        assert len({e.turn for e in tail.entries}) == tail.turns <= 2 * tail.window
    assert {e.turn for e in await store.recent("s1", 40)} == set(range(261, 301))  # re-read
