"""Three real `jarvis serve` processes on one PostgreSQL engine database poll the same external
sources; processes are killed (SIGKILL) between recording new entries as seen and notifying,
and restarted: every entry is said once — 0 missed, 0 in two notifications (docs/sources.md).
The 1,000-entry run of the same code is `benchmarks/sources.py --processes`."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from tests.faults.sources_processes import DECIDED, run_three

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(1500)]


async def test_three_processes_say_each_entry_once_across_kills(
    tmp_path: Path, dsn: str, httpserver: HTTPServer
) -> None:
    outcome = await run_three(
        tmp_path / "shared", dsn, httpserver, sources=4, batches=3, per_batch=8, kills=2
    )
    assert outcome.entries == 4 * 3 * 8
    assert outcome.kills >= 2  # the fault happened (every process is armed until two kills)
    assert outcome.missed == []
    assert outcome.duplicate == []
    assert outcome.notes >= 3  # a digest per source per period, said by whichever process
    print(outcome)  # with -s: the figures


async def test_immediate_entries_through_the_gate_are_said_once_across_kills(
    tmp_path: Path, dsn: str, httpserver: HTTPServer
) -> None:
    """Two of four sources `notify: immediate`, speaking first on: each process is killed right
    after an immediate batch recorded the gate's decision, before anything was said. Every
    entry is in exactly one message that went out: said now, or in the held digest."""
    outcome = await run_three(
        tmp_path / "shared", dsn, httpserver, sources=4, batches=3, per_batch=8, kills=2,
        immediate=2, hold=DECIDED,
    )  # fmt: skip
    assert outcome.entries == 4 * 3 * 8
    assert outcome.kills >= 2
    assert outcome.missed == []
    assert outcome.duplicate == []
    assert outcome.said_now >= 1 and outcome.held >= 1  # the gate let one through, held others
    print(outcome)
