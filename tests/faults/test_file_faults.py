"""File faults against a real server: reported in one line, never fatal, nothing confirmed lost,
and `/api/health` answered while each fault was in force."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx

from jarvis.agent_layer.sessions import JsonlSessionStore, SessionEntry, SessionInfo
from jarvis.common.jsonl import JsonlWriter
from jarvis.model_layer import AssistantMessage, UserMessage
from tests.faults.conftest import (
    fill,
    give_to_process,
    make_unreadable,
    run_jarvis,
    serve_files,
    until_healthy,
)
from tests.support.hang import HANG_GUARD_SEC
from tests.support.live_server import Tab, live_server
from tests.support.processes import hud_headers


def turn(n: int) -> list[SessionEntry]:
    return [
        SessionEntry(turn=n, ts_ms=n, message=UserMessage(content=f"q{n}")),
        SessionEntry(turn=n, ts_ms=n, message=AssistantMessage(content=f"a{n}")),
    ]


async def healthy(http: httpx.AsyncClient) -> bool:
    return (await http.get("/api/health")).status_code == 200


# ---- a full disk ----------------------------------------------------------------------------


async def test_a_full_disk_refuses_a_new_session_in_one_line_and_loses_no_turn(
    full_disk_home: Path,
) -> None:
    home = full_disk_home
    with live_server(home, ["first answer", "second answer"], language="en") as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            tab = await Tab.open(server.ws_url())
            session_id = (await tab.next("session"))["session"]["id"]
            await tab.send(type="prompt", text="remember this")
            await tab.next("agent_end")
            await tab.close()
            sessions = home / "sessions"
            before = sorted(p.name for p in sessions.iterdir())

            filler = fill(home)
            refused = await http.post("/api/sessions")
            assert await healthy(http)
            detail = refused.json()["detail"]
            assert refused.status_code == 507 and "\n" not in detail
            assert str(sessions) in detail and "disk space" in detail
            assert sorted(p.name for p in sessions.iterdir()) == before  # no 0-byte file

            filler.unlink()
            assert (await http.post("/api/sessions")).status_code == 200
            shown = (await http.get(f"/api/sessions/{session_id}/history")).json()
            assert [e["message"]["content"] for e in shown] == ["remember this", "first answer"]


async def test_appends_on_a_full_disk_fail_naming_the_file_and_resume_clean(
    full_disk_home: Path,
) -> None:
    home = full_disk_home
    store = JsonlSessionStore(home / "sessions")
    await store.create(SessionInfo(id="s1", created_ms=1))
    await store.append("s1", turn(1))
    audit = JsonlWriter(home / "audit.jsonl")
    audit.append(['{"n": 1}'])
    filler = fill(home)
    big = [SessionEntry(turn=2, ts_ms=2, message=UserMessage(content="x" * 200_000))]
    for attempt in (lambda: store.append("s1", big),):
        try:
            await attempt()
        except OSError as exc:
            assert exc.filename == str(home / "sessions" / "s1.jsonl")
        else:
            raise AssertionError("an append on a full disk must fail")
    try:
        audit.append(['{"n": 2, "pad": "' + "y" * 100_000 + '"}'])
    except OSError as exc:
        assert exc.filename == str(home / "audit.jsonl")
    filler.unlink()

    await store.append("s1", turn(3))
    audit.append(['{"n": 3}'])
    reread = JsonlSessionStore(home / "sessions")
    assert [e.message.content for e in await reread.history("s1")] == ["q1", "a1", "q3", "a3"]
    lines = (home / "audit.jsonl").read_bytes().split(b"\n")
    assert lines[0] == b'{"n": 1}' and lines[-2] == b'{"n": 3}'  # never glued onto a torn line


# ---- unreadable files (a real EACCES) -------------------------------------------------------


async def test_an_unreadable_session_file_is_logged_and_the_rest_are_listed(
    other_user_home: tuple[Path, dict[str, object]],
) -> None:
    home, run_as = other_user_home
    sessions = home / "sessions"
    sessions.mkdir()
    give_to_process(sessions, run_as)
    for sid, user in (("good", "local"), ("locked", "local")):
        (sessions / f"{sid}.jsonl").write_text(
            json.dumps({"type": "header", "id": sid, "user_id": user, "created_ms": 1}) + "\n",
            encoding="utf-8",
        )
        give_to_process(sessions / f"{sid}.jsonl", run_as)
    make_unreadable(sessions / "locked.jsonl")
    with serve_files(home, run_as) as (url, log):
        await until_healthy(url)
        async with httpx.AsyncClient(base_url=url, headers=hud_headers()) as http:
            for _ in range(2):
                listed = await http.get("/api/sessions")
                assert listed.status_code == 200
                assert [s["id"] for s in listed.json()] == ["good"]
            assert await healthy(http)
        warned = [line for line in log.read_text().splitlines() if "locked.jsonl" in line]
    assert len(warned) == 1 and "Permission denied" in warned[0]


def test_start_up_with_an_unreadable_config_or_openloop_file_is_one_line(
    other_user_home: tuple[Path, dict[str, object]],
) -> None:
    home, run_as = other_user_home
    config = home / "config.yaml"
    config.write_text("language: en\n", encoding="utf-8")
    make_unreadable(config)
    done = run_jarvis(home, run_as, "chat", "--demo")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    [line] = (done.stdout + done.stderr).strip().splitlines()
    assert str(config) in line and "Permission denied" in line

    config.unlink()
    loops = home / "openloops.jsonl"
    loops.write_text("{}\n", encoding="utf-8")
    make_unreadable(loops)
    done = run_jarvis(home, run_as, "chat", "--demo")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    [line] = (done.stdout + done.stderr).strip().splitlines()
    assert str(loops) in line and "move it aside" in line


# ---- corrupt files --------------------------------------------------------------------------


async def test_corrupt_session_files_keep_their_intact_turns(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    store = JsonlSessionStore(sessions)
    for sid in ("torn", "headless"):
        await store.create(SessionInfo(id=sid, created_ms=1))
        await store.append(sid, turn(1))
        await store.append(sid, turn(2))
    torn = sessions / "torn.jsonl"
    with torn.open("ab") as handle:
        handle.write(b'\xff\xfe{"type": "entry", "turn": 3, "mess')
    headless = sessions / "headless.jsonl"
    headless.write_bytes(b"\x00garbage\n" + headless.read_bytes().split(b"\n", 1)[1])
    with live_server(tmp_path, ["ok"]) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            listed = {s["id"]: s["turns"] for s in (await http.get("/api/sessions")).json()}
            assert listed == {"torn": 2, "headless": 2}
            for sid in ("torn", "headless"):
                shown = (await http.get(f"/api/sessions/{sid}/history")).json()
                assert [e["message"]["content"] for e in shown] == ["q1", "a1", "q2", "a2"]
            assert await healthy(http)


# ---- stalled reads and slow imports: the loop keeps serving ---------------------------------


async def test_a_stalled_session_file_read_does_not_stall_the_server(tmp_path: Path) -> None:
    with live_server(tmp_path, ["ok"]) as server:
        stalled = tmp_path / "sessions" / "stalled.jsonl"
        os.mkfifo(stalled)  # opening it blocks until someone writes: a read that hangs
        try:
            async with httpx.AsyncClient(
                base_url=server.url, headers=server.headers, timeout=HANG_GUARD_SEC
            ) as http:
                import asyncio

                listing = asyncio.create_task(http.get("/api/sessions"))
                answered = await http.get("/api/health")  # while the listing is stuck
                assert answered.status_code == 200 and not listing.done()
                # The listing's worker may not have reached open() yet: keep offering a writer
                # until the listing ends (each offer only succeeds while a reader waits).
                while not listing.done():
                    release(stalled)
                    await asyncio.wait({listing}, timeout=0.05)
                assert listing.result().status_code == 200
        finally:
            release(stalled)


def release(fifo: Path) -> None:
    """Open the FIFO's write end if a reader waits on it, so that read ends (with EOF)."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return  # no reader waiting
    os.close(fd)


SLOW_TOOL = """
import pathlib, time
pathlib.Path({started!r}).touch()
for _ in range(3000):  # gives up after ~30 s, so a stalled server fails the test, not hangs it
    if pathlib.Path({release!r}).exists():
        break
    time.sleep(0.01)
TOOL_NAME = "slow"
def execute(tool_call_id, params, **kw):
    return "done"
"""


async def test_a_slow_user_tool_import_does_not_stall_the_server(tmp_path: Path) -> None:
    import asyncio

    with live_server(tmp_path, ["ok"]) as server:
        started, released = tmp_path / "import-started", tmp_path / "import-released"
        (tmp_path / "tools").mkdir(exist_ok=True)
        source = SLOW_TOOL.format(started=str(started), release=str(released))
        (tmp_path / "tools" / "slow.py").write_text(source, encoding="utf-8")
        while not started.exists():
            await asyncio.sleep(0.01)
        async with httpx.AsyncClient(
            base_url=server.url, headers=server.headers, timeout=HANG_GUARD_SEC
        ) as http:
            assert await healthy(http)
            listed = await http.get("/api/sessions")
        # Both answered while the import was still waiting for its release.
        assert listed.status_code == 200 and server.assembly.tools.get("slow") is None
        released.touch()
        while server.assembly.tools.get("slow") is None:
            await asyncio.sleep(0.01)
