"""Rename and delete, the same on every session store (memory, JSONL, PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

from jarvis.agent_layer.sessions import (
    JsonlSessionStore,
    SessionInfo,
    SessionNotFound,
    SessionStore,
)
from tests.unit.sessions.test_store_conformance import store, turn

__all__ = ["store"]  # the conformance suite's parametrized fixture


async def test_a_chosen_title_stays_after_later_turns(store: SessionStore) -> None:
    await store.create(SessionInfo(id="r1", user_id="u"))
    await store.append("r1", turn(1, 10, "first question"))
    assert await store.rename("r1", "  Trip\n planning  ")
    await store.append("r1", turn(2, 20, "another question"))
    info = await store.get_info("r1")
    assert info is not None and info.title == "Trip planning"
    (listed,) = [i for i in await store.list_sessions(user_id="u") if i.id == "r1"]
    assert listed.title == "Trip planning"


async def test_rename_and_delete_of_an_unknown_session_say_so(store: SessionStore) -> None:
    assert not await store.rename("nope1", "x")
    assert not await store.delete("nope1")


async def test_delete_removes_the_session_and_its_history(store: SessionStore) -> None:
    await store.create(SessionInfo(id="d1", user_id="u"))
    await store.create(SessionInfo(id="d2", user_id="u"))
    await store.append("d1", turn(1, 10))
    await store.rename("d1", "gone soon")
    assert await store.delete("d1")
    assert await store.get_info("d1") is None
    assert [i.id for i in await store.list_sessions(user_id="u") if i.id.startswith("d")] == ["d2"]
    try:
        await store.history("d1")
    except SessionNotFound:
        pass
    else:
        raise AssertionError("history of a deleted session")
    assert not await store.delete("d1")


async def test_jsonl_titles_survive_a_new_process(tmp_path: Path) -> None:
    first = JsonlSessionStore(tmp_path)
    await first.create(SessionInfo(id="t1"))
    await first.append("t1", turn(1, 10, "a question"))
    await first.rename("t1", "Renamed")
    again = JsonlSessionStore(tmp_path)
    info = await again.get_info("t1")
    assert info is not None and info.title == "Renamed"
    (tmp_path / "titles.json").write_text("{broken", encoding="utf-8")
    damaged = await JsonlSessionStore(tmp_path).get_info("t1")
    assert damaged is not None and damaged.title == "a question"
