"""The experiments run as their docstrings say, from a plain shell (no test fixtures, no token
set by anyone), and print their tables. The real-model commands are in tests/integration/
real_model/test_experiment_commands.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# Starting a server per trial on a busy machine: a hang guard, not a measurement.
pytestmark = pytest.mark.timeout(900)


def run_documented(script: str, *args: str) -> str:
    """`.venv/bin/python experiments/<script> ARGS` from the repository root, with the
    environment a person's shell has (no JARVIS_* settings)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    done = subprocess.run(
        [sys.executable, f"experiments/{script}", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=800,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_denial_flow_experiment_runs_and_the_turn_ends_by_code() -> None:
    out = run_documented("denial_flow.py")
    assert "| Jarvis, scripted model | 3/3 | 3/3 | 3/3 |" in out


def test_the_overflow_resume_experiment_runs_and_resume_replies_every_time() -> None:
    out = run_documented("overflow_resume.py")
    assert "| no resume, 6 rounds | 2/8 | 2/8 | 2/8 | 6/8 | 5.8 (6) |" in out
    assert "| overflow resume, 6+3 rounds | 5/8 | 5/8 | 8/8 | 6/8 | 8.8 (11) |" in out


def test_the_thinking_eval_runs_and_measures_speaking_first_on_real_activity() -> None:
    out = run_documented("thinking_eval.py")
    assert "## Speaking first (synthetic situations)" in out
    assert "## Speaking first on real activity (ProactiveBench, judged by people)" in out
    assert "### test half: 121 moments in 6 sessions, 92 worth speaking at" in out
    assert "Targets on the test half (gold ratings, each moment alone)" in out
