"""The real-model experiment commands as their docstrings give them (`--base-url … --model …`),
from a plain shell, against the real llama.cpp server: they start and finish (the last stop's
`real_model_tour.py` died at once on a launch-token assertion borrowed from the test fixtures)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.real_model.conftest import RealModel

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.timeout(1500)


def run_documented(script: str, real_model: RealModel) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    args = ["--base-url", real_model.base_url, "--model", real_model.model]
    return subprocess.run(
        [sys.executable, f"experiments/{script}", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1400,
        check=False,
    )


def test_the_tour_runs_against_a_server_given_by_url(real_model: RealModel) -> None:
    done = run_documented("real_model_tour.py", real_model)
    assert "launch token" not in done.stderr, done.stderr[-2000:]
    assert "| jarvis: DENY" in done.stdout and "| jarvis: ALLOW" in done.stdout, done.stderr[-2000:]
