"""Focus tasks, the pure parts and the files: transitions, the URL normaliser, the plan, the
store's de-duplication and torn lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.core.focus.findings import findings
from jarvis.core.focus.state import (
    FocusStep,
    FocusTask,
    first_open_step,
    next_status,
    parse_plan,
    run_ref,
)
from jarvis.core.focus.store import FocusStore
from jarvis.core.focus.urls import normalise_url


@pytest.mark.parametrize(
    ("status", "event", "expected"),
    [
        ("planning", "planned", "waiting"),
        ("planning", "plan_rejected", "failed"),
        ("planning", "crashed", "interrupted"),
        ("planning", "step_started", None),
        ("waiting", "step_started", "running"),
        ("waiting", "step_done", None),
        ("running", "step_done", "waiting"),
        ("running", "last_step_done", "done"),
        ("running", "step_failed", "failed"),
        ("running", "crashed", "interrupted"),
        ("running", "pause", "paused"),
        ("waiting", "pause", "paused"),
        ("paused", "pause", None),
        ("paused", "resume", "waiting"),
        ("interrupted", "resume", "waiting"),
        ("interrupted", "step_started", None),  # never re-run without the person
        ("waiting", "resume", None),
        ("interrupted", "stop", "cancelled"),
        ("paused", "stop", "cancelled"),
        ("done", "stop", None),
        ("done", "resume", None),
        ("failed", "resume", None),
        ("cancelled", "resume", None),
        ("cancelled", "pause", None),
    ],
)
def test_transitions(status: str, event: str, expected: str | None) -> None:
    assert next_status(status, event) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("url", "normal"),
    [
        ("https://Example.ORG/a", "https://example.org/a"),
        ("HTTPS://example.org:443/a/", "https://example.org/a"),
        ("http://example.org:80", "http://example.org/"),
        ("http://example.org:8080/x", "http://example.org:8080/x"),
        ("https://example.org/a#section", "https://example.org/a"),
        ("https://example.org/a?b=2&a=1", "https://example.org/a?a=1&b=2"),
        ("https://example.org/a?utm_source=x&id=3&fbclid=z", "https://example.org/a?id=3"),
        ("https://example.org/%7Euser/a%20b", "https://example.org/~user/a%20b"),
        ("https://example.org./", "https://example.org/"),
        ("  https://example.org/a  ", "https://example.org/a"),
        ("ftp://example.org/file", "ftp://example.org/file"),  # not http(s): as written
        ("not a url", "not a url"),
    ],
)
def test_normalise_url(url: str, normal: str) -> None:
    assert normalise_url(url) == normal


@pytest.mark.parametrize(
    ("answer", "steps"),
    [
        ('["a", "b", "c"]', ["a", "b", "c"]),
        ('Here:\n```json\n["find", "read"]\n```', ["find", "read"]),
        ("1. find\n2) read\n- report", ["find", "read", "report"]),
        ("no plan at all", None),
        ("[]", None),
        ("[" + ", ".join(f'"s{i}"' for i in range(13)) + "]", None),  # too many steps
        ('["' + "x" * 301 + '"]', None),  # a step too long
        ("[1, 2]", None),
    ],
)
def test_parse_plan(answer: str, steps: list[str] | None) -> None:
    assert parse_plan(answer) == steps


def test_run_refs_and_first_open_step() -> None:
    task = FocusTask(id="t", objective="o", steps=[FocusStep(title="a"), FocusStep(title="b")])
    assert run_ref(task, None) == "focus:t:plan"
    assert first_open_step(task) == 1
    task.steps[0].status = "done"
    task.steps[1].attempt = 2
    assert (first_open_step(task), run_ref(task, 2)) == (2, "focus:t:2.2")
    task.steps[1].status = "done"
    assert first_open_step(task) is None


def test_findings_keys_are_stable() -> None:
    answer = "intro\n- one https://a.example/x.\n* two (https://b.example/y)\nend"
    first = findings(answer)
    assert [(f.item, f.urls) for f in first] == [
        ("f1", ("https://a.example/x",)),
        ("f2", ("https://b.example/y",)),
    ]
    assert findings(answer) == first
    assert [f.item for f in findings("just text")] == ["summary"]
    assert findings("   ") == []


def test_references_keep_their_number(tmp_path: Path) -> None:
    store = FocusStore(tmp_path)
    store.create(FocusTask(id="t", objective="o"))
    assert store.cite("t", "https://example.org/a") == 1
    assert store.cite("t", "https://example.org/b", "B page") == 2
    assert store.cite("t", "HTTPS://EXAMPLE.org:443/a/#x") == 1  # the same page, another spelling
    assert store.cite("t", "https://example.org/a?utm_source=feed") == 1
    assert store.cite("t", "https://example.org/c") == 3
    text = (tmp_path / "focus" / "t" / "references.md").read_text(encoding="utf-8")
    assert text == (
        "[1] https://example.org/a\n[2] https://example.org/b — B page\n[3] https://example.org/c\n"
    )


def test_analysis_once_per_key_and_torn_line_skipped(tmp_path: Path) -> None:
    store = FocusStore(tmp_path)
    store.create(FocusTask(id="t", objective="o"))
    assert store.analyse("t", 1, "f1", {"text": "a"})
    assert not store.analyse("t", 1, "f1", {"text": "a again"})  # a replayed step
    assert store.analyse("t", 2, "f1", {"text": "b"})
    path = tmp_path / "focus" / "t" / "analysis.jsonl"
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"step": 3, "item": "f1", "te')  # a crash mid-append
    assert [(r["step"], r["item"]) for r in store.analysis("t")] == [(1, "f1"), (2, "f1")]
    assert store.analyse("t", 3, "f1", {"text": "c"})  # the torn one never counted
    assert [(r["step"], r["text"]) for r in store.analysis("t")] == [(1, "a"), (2, "b"), (3, "c")]


def test_state_update_is_atomic_and_ids_are_checked(tmp_path: Path) -> None:
    store = FocusStore(tmp_path)
    store.create(FocusTask(id="t", objective="o"))
    with pytest.raises(FileExistsError):
        store.create(FocusTask(id="t", objective="other"))
    with pytest.raises(ValueError):
        store.folder("../escape")
    updated = store.update("t", lambda task: setattr(task, "status", "waiting") is None)
    assert updated is not None and store.load("t") == updated
    assert store.update("missing", lambda task: True) is None
    assert not list((tmp_path / "focus" / "t").glob(".state.json.*"))  # no temp file left
    store.log("t", "two\nlines")
    assert store.read_area("t", "log.md") == "- two lines\n"
