"""Shared by the Focus crash tests: a `jarvis serve --demo` held at a named point, the task's
files read back, and the checks every run must pass."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jarvis.app.focus.hold import ENV as HOLD_ENV
from jarvis.core.focus.demo import DEMO_STEPS
from jarvis.core.focus.state import FocusTask
from jarvis.core.focus.store import FocusStore
from jarvis.core.focus.urls import normalise_url
from tests.faults.conftest import JARVIS, jarvis_env
from tests.support.hang import HANG_GUARD_SEC
from tests.support.ports import free_port

STEPS = len(DEMO_STEPS)
# Where a process may be killed: before and after the planning call, and inside and at the
# end of each step (marked running, answered, first reference, first record, logged, done).
POINTS = ["plan:begun", "plan:answered"] + [
    f"{n}:{where}"
    for n in range(1, STEPS + 1)
    for where in ("begun", "answered", "cited", "analysed", "logged", "end")
]
LAST_POINT = POINTS[-1]  # reached after the task is marked done
_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
WAIT_POLL_SEC = 0.05  # how often a condition is looked at again (not a deadline)


def env(home: Path, extra: dict[str, str]) -> dict[str, str]:
    out = jarvis_env(home)
    out.update(
        JARVIS_SCHEDULER__TICK_SEC="0.1",
        JARVIS_SCHEDULER__EXECUTOR_ID="focus-crash",  # a restart recovers the killed one's runs
        JARVIS_SCHEDULER__REMINDERS="false",
    )
    out.update(extra)
    return out


@contextlib.contextmanager
def server(home: Path, hold: str | None, extra: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    environment = env(home, extra)
    if hold:
        environment[HOLD_ENV] = hold
    with (home / "serve.log").open("a", encoding="utf-8") as log:
        process = subprocess.Popen(
            [JARVIS, "serve", "--demo", "--port", str(free_port())],
            env=environment,
            cwd=home,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(HANG_GUARD_SEC)


def cli(home: Path, extra: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [JARVIS, "focus", *args],
        env=env(home, extra),
        cwd=home,
        capture_output=True,
        text=True,
        check=True,
        timeout=HANG_GUARD_SEC,
    )
    return done.stdout


def load(home: Path, task_id: str) -> FocusTask:
    task = FocusStore(home).load(task_id)
    assert task is not None
    return task


def wait_for(
    home: Path, task_id: str, process: subprocess.Popen[str], hold: str | None = None
) -> str:
    """Until the process holds at its point ("held"), or the task stops for the person
    (interrupted) or for good. The last step's end point comes after the task is marked done:
    held there, "done" is not the outcome (the run would never end: the test would wait on it
    for ever). No deadline: pytest's timeout guards."""
    marker = home / "focus-held"
    while True:
        if marker.exists():
            return "held"
        task = FocusStore(home).load(task_id)
        stopped = ("interrupted", "failed", "cancelled") + (() if hold == LAST_POINT else ("done",))
        if task is not None and task.status in stopped:
            return task.status
        assert process.poll() is None, (home / "serve.log").read_text(encoding="utf-8")[-3000:]
        time.sleep(WAIT_POLL_SEC)


def invariants(home: Path, task_id: str, done_before: set[int]) -> set[int]:
    """No duplicate reference or analysis record, no completed step lost; the steps done now."""
    store = FocusStore(home)
    refs = store.references(task_id)
    assert [r.number for r in refs] == list(range(1, len(refs) + 1))
    urls = [normalise_url(r.url) for r in refs]
    assert len(urls) == len(set(urls)), urls
    keys = [(r["step"], r["item"]) for r in store.analysis(task_id)]
    assert len(keys) == len(set(keys)), keys
    task = load(home, task_id)
    done = {n for n, s in enumerate(task.steps, 1) if s.status == "done"}
    assert done_before <= done, (done_before, done)
    return done


def started_lines(home: Path, task_id: str) -> dict[int, int]:
    counts: dict[int, int] = {}
    for line in FocusStore(home).read_area(task_id, "log.md").splitlines():
        match = re.search(r" step (\d+) started ", line)
        if match:
            counts[int(match[1])] = counts.get(int(match[1]), 0) + 1
    return counts


def comparable(home: Path, task_id: str) -> dict[str, Any]:
    """The task's files with timestamps, attempts, token counts (a resumed attempt's prompt
    recalls more history) and ids of sessions masked; the log as its
    first "plan"/"step N done" lines in order (a resumed task's log also says what happened)."""
    store = FocusStore(home)
    state = json.loads((store.folder(task_id) / "state.json").read_text(encoding="utf-8"))
    for key in ("created_ms", "started_ms", "updated_ms", "turns", "plan_attempt", "id", "tokens"):
        state.pop(key, None)
    for step in state["steps"]:
        for key in ("started_ms", "finished_ms", "attempt", "session_id", "tokens"):
            step.pop(key, None)
    seen: list[str] = []
    for line in store.read_area(task_id, "log.md").splitlines():
        line = _STAMP.sub("<ts>", line)
        if re.search(r"(plan: \d+ steps|step \d+ done)$", line) and line not in seen:
            seen.append(line)
    return {
        "state": state,
        "references": store.read_area(task_id, "references.md"),
        "analysis": store.read_area(task_id, "analysis.jsonl"),
        "log": seen,
    }


def engine_pending(home: Path, dsn: str | None) -> list[str]:
    """Focus runs the engine still has as PENDING (started, never finished)."""
    query = (
        "SELECT workflow_uuid FROM {t} WHERE status = 'PENDING' AND workflow_uuid LIKE 'focus:%'"
    )
    if dsn is None:
        import sqlite3

        with contextlib.closing(sqlite3.connect(home / "engine.sqlite")) as db:
            return [row[0] for row in db.execute(query.format(t="workflow_status"))]
    import psycopg

    schema = dsn.split("search_path%3D", 1)[1].split("&", 1)[0]
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(query.format(t=f'"{schema}".workflow_status')).fetchall()
    return [row[0] for row in rows]


def wait_settled(home: Path, dsn: str | None, process: subprocess.Popen[str]) -> None:
    """Until the engine has no Focus run PENDING (the last one records its end)."""
    while engine_pending(home, dsn):
        assert process.poll() is None
        time.sleep(WAIT_POLL_SEC)
